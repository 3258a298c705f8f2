/** The header cell of a table's action column: named for screen readers, blank on screen. */
export function ActionsHeader() {
  return (
    <th scope="col">
      <span className="visually-hidden">Actions</span>
    </th>
  );
}
