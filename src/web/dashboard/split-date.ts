/**
 * The API's 'date, time' string split for the Date and Time columns; 'No' when missing (docs/product.md,
 * Dashboard).
 */
export function splitSpecDate(value: string | null | undefined): { date: string; time: string } {
  if (!value) return { date: 'No', time: 'No' };
  const [date = 'No', time = 'No'] = value.split(',').map((part) => part.trim());
  return { date, time };
}
