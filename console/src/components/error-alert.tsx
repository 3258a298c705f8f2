/** A failure's message, announced at once (role alert); nothing while there is none. */
export function ErrorAlert({ error }: { error: string | null }) {
  return error ? (
    <p className="error" role="alert">
      {error}
    </p>
  ) : null;
}
