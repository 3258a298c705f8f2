/** A body as the log or a delivery kept it: pretty-printed when it is JSON, as it is otherwise. */
export function prettyText(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

const kib = (bytes: number) => (bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KiB`);

/** A titled, scrollable block of a body, with a note when it was cut. */
export function PrettyBody({
  title,
  text,
  bytes,
  truncated,
}: {
  title: string;
  text: string | null;
  bytes?: number;
  truncated?: boolean;
}) {
  return (
    <figure className="pretty-body">
      <figcaption>{title}</figcaption>
      {text === null || text === '' ? (
        <p className="hint">None.</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        <section className="scroll" tabIndex={0} aria-label={title}>
          <pre>
            <code>{truncated ? text : prettyText(text)}</code>
          </pre>
        </section>
      )}
      {truncated ? (
        <p className="hint">
          Cut here: only the first part of {bytes === undefined ? 'it' : kib(bytes)} is kept.
        </p>
      ) : null}
    </figure>
  );
}

/** Header names and values, one pair a line. */
export function HeaderList({ headers }: { headers: Record<string, string> }) {
  return (
    <dl className="headers">
      {Object.entries(headers).map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>
            <code className="wrap">{value}</code>
          </dd>
        </div>
      ))}
    </dl>
  );
}
