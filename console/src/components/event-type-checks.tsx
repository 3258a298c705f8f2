/** The event types as checkboxes named `eventTypes` (none ticked: every type); the list comes from the API. */
export function EventTypeChecks({
  eventTypes,
  checked = [],
  idPrefix,
}: {
  eventTypes: string[] | null;
  checked?: string[];
  idPrefix: string;
}) {
  return (
    <fieldset>
      <legend>Event types (none ticked: every type)</legend>
      {eventTypes === null ? (
        <p role="status">Loading the event types…</p>
      ) : (
        <div className="checks">
          {eventTypes.map((type) => (
            <label key={type} className="check" htmlFor={`${idPrefix}-${type}`}>
              <input
                id={`${idPrefix}-${type}`}
                type="checkbox"
                name="eventTypes"
                value={type}
                defaultChecked={checked.includes(type)}
              />{' '}
              <code>{type}</code>
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}
