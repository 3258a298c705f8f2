/** The outcome of the last change, announced politely; `className` decides whether it is also shown. */
export function LiveStatus({
  status,
  className,
}: {
  status: string;
  className: 'success' | 'visually-hidden';
}) {
  return (
    <p className={className} role="status" aria-live="polite">
      {status}
    </p>
  );
}
