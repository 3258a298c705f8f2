/** Product data as a person reads it: nested definition lists, keys in words ("batteryMass" → "Battery mass"). */

const words = (key: string) => {
  const spaced = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replaceAll('_', ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1).toLowerCase();
};

export function ProductDataView({ value }: { value: unknown }) {
  if (Array.isArray(value)) {
    if (value.length === 0) return <>None</>;
    return (
      <ol className="data-list">
        {value.map((entry, index) => (
          // Positions are the identity of a list's entries here (read-only).
          // biome-ignore lint/suspicious/noArrayIndexKey: a read-only rendering
          <li key={index}>
            <ProductDataView value={entry} />
          </li>
        ))}
      </ol>
    );
  }
  if (typeof value === 'object' && value !== null) {
    return (
      <dl className="data-view">
        {Object.entries(value).map(([key, inner]) => (
          <div key={key}>
            <dt>{words(key)}</dt>
            <dd>
              <ProductDataView value={inner} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  if (value === null || value === undefined || value === '') return <>—</>;
  return <>{String(value)}</>;
}
