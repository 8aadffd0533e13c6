/** "1 response", "4 responses", "1,200 responses". */
export const responsesCount = (n: number) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? 'response' : 'responses'}`;
