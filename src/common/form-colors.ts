const HEX = /^#[0-9a-f]{6}$/i;

/** The form's colours, falling back to the blank template's when a stored value is not a hex colour. */
export const backgroundOf = (form: { color: string }) => (HEX.test(form.color) ? form.color : '#EAEAEA');
export const accentOf = (form: { border: string }) => (HEX.test(form.border) ? form.border : '#00D78B');

/** The editor's two colour menus (docs/product.md, Editor): each named colour, its standard hex value and its menu. */
const NAMED_COLORS = [
  { menu: 'form', name: 'Glitter', hex: '#E6E8FA' },
  { menu: 'form', name: 'Peach Puff', hex: '#FFDAB9' },
  { menu: 'form', name: 'Bone', hex: '#E3DAC9' },
  { menu: 'form', name: 'Middle green yellow', hex: '#ACBF60' },
  { menu: 'form', name: 'Pale Turquoise', hex: '#AFEEEE' },
  { menu: 'form', name: 'Pale Lavender', hex: '#DCD0FF' },
  { menu: 'form', name: 'Tea Green', hex: '#D0F0C0' },
  { menu: 'form', name: 'Light Steel Blue', hex: '#B0C4DE' },
  { menu: 'border', name: 'Grey', hex: '#808080' },
  { menu: 'border', name: 'Salmon', hex: '#FA8072' },
  { menu: 'border', name: 'Dark Vanilla', hex: '#D1BEA8' },
  { menu: 'border', name: 'Dark Olive Green', hex: '#556B2F' },
  { menu: 'border', name: 'Dark Cyan', hex: '#008B8B' },
  { menu: 'border', name: 'Regalia', hex: '#522D80' },
  { menu: 'border', name: 'Pastel Green', hex: '#77DD77' },
  { menu: 'border', name: 'Blue Sapphire', hex: '#126180' },
] as const;
type ColorMenu = (typeof NAMED_COLORS)[number]['menu'];
const colorMenu = (menu: ColorMenu) =>
  NAMED_COLORS.filter((c) => c.menu === menu).map(({ name, hex }) => ({ name, hex }));
export const FORM_COLORS = colorMenu('form');
export const BORDER_COLORS = colorMenu('border');
