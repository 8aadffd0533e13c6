const HEX = /^#[0-9a-f]{6}$/i;

/** The form's colours, falling back to the blank template's when a stored value is not a hex colour. */
export const backgroundOf = (form: { color: string }) => (HEX.test(form.color) ? form.color : '#EAEAEA');
export const accentOf = (form: { border: string }) => (HEX.test(form.border) ? form.border : '#00D78B');
