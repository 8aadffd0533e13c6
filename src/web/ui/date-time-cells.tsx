/** A row's Date and Time cells (see DateTimeHeads): on a phone the time shows under the date instead. */
export function DateTimeCells({ date, time }: { date: string | undefined; time: string | undefined }) {
  return (
    <>
      <td>
        {date}
        <span className="only-on-phone muted">{time}</span>
      </td>
      <td className="hide-on-phone">{time}</td>
    </>
  );
}
