import { useId } from 'react';
import { isHardToRead } from '#common/contrast.ts';
import { BORDER_COLORS, FORM_COLORS } from '#common/forms.ts';

type Props = {
  color: string;
  border: string;
  onChange: (patch: { color?: string; border?: string }) => void;
};

/** Choose Form Color and Form Border (spec §2), with a warning when text on them would be hard to read. */
export function ColorControls({ color, border, onChange }: Props) {
  const id = useId();
  const warnings = [
    isHardToRead(color)
      ? 'Text on this form colour is hard to read (below WCAG AA). Pick a lighter or darker colour.'
      : null,
    isHardToRead(border, 'large') ? 'The title on this border colour is hard to read (below WCAG AA).' : null,
  ].filter(Boolean);
  const options = (list: readonly { name: string; hex: string }[], current: string) => [
    ...(list.some((c) => c.hex === current) ? [] : [{ name: `Custom ${current}`, hex: current }]),
    ...list,
  ];
  return (
    <div className="color-controls">
      <div className="field">
        <label className="field-label" htmlFor={`${id}-color`}>
          Choose Form Color
        </label>
        <div className="color-row">
          <span className="swatch" style={{ background: color }} aria-hidden="true" />
          <select
            id={`${id}-color`}
            className="input"
            value={color}
            onChange={(e) => onChange({ color: e.target.value })}
          >
            {options(FORM_COLORS, color).map((c) => (
              <option key={c.hex} value={c.hex}>
                {c.name}
              </option>
            ))}
          </select>
          <input
            type="color"
            aria-label="Custom form colour"
            value={color.toLowerCase()}
            onChange={(e) => onChange({ color: e.target.value })}
          />
        </div>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-border`}>
          Form Border
        </label>
        <div className="color-row">
          <span className="swatch" style={{ background: border }} aria-hidden="true" />
          <select
            id={`${id}-border`}
            className="input"
            value={border}
            onChange={(e) => onChange({ border: e.target.value })}
          >
            {options(BORDER_COLORS, border).map((c) => (
              <option key={c.hex} value={c.hex}>
                {c.name}
              </option>
            ))}
          </select>
          <input
            type="color"
            aria-label="Custom border colour"
            value={border.toLowerCase()}
            onChange={(e) => onChange({ border: e.target.value })}
          />
        </div>
      </div>
      {warnings.map((w) => (
        <p key={w} className="alert alert-info color-warning" role="status">
          {w}
        </p>
      ))}
    </div>
  );
}
