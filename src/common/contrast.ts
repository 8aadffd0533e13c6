/** WCAG 2 relative luminance of a #RRGGBB colour. */
export function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = channels.map((c) =>
    c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4,
  );
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio between two colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

export const AA_NORMAL_TEXT = 4.5;
/** 18.66 px bold or 24 px regular and up. */
export const AA_LARGE_TEXT = 3;
export const INK = '#14211C';
export const WHITE = '#FFFFFF';

/** Dark ink or white, whichever reads better on `background`. */
export const textColorOn = (background: string): string =>
  contrastRatio(background, INK) >= contrastRatio(background, WHITE) ? INK : WHITE;

/** Whether the best text colour on `background` still falls short of WCAG AA. */
export const isHardToRead = (background: string, size: 'normal' | 'large' = 'normal'): boolean =>
  contrastRatio(background, textColorOn(background)) < (size === 'large' ? AA_LARGE_TEXT : AA_NORMAL_TEXT);
