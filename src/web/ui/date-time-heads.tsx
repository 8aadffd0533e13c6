/** The Date and Time column heads that go with DateTimeCells: Time is a column of its own on wider screens only. */
export function DateTimeHeads() {
  return (
    <>
      <th scope="col">Date</th>
      <th scope="col" className="hide-on-phone">
        Time
      </th>
    </>
  );
}
