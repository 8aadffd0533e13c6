import { useEffect, useId, useRef, useState } from 'react';
import { isHardToRead } from '#common/contrast.ts';
import { BORDER_COLORS, FORM_COLORS } from '#common/form-colors.ts';
import { LabelledControl } from '../ui/labelled-control.tsx';

type Named = readonly { name: string; hex: string }[];
type PickerProps = {
  label: string;
  customLabel: string;
  value: string;
  named: Named;
  onPick: (hex: string) => void;
};

/** One colour: the product's named colours in a menu (plus the current one if it is custom) and a free picker. */
function ColorPicker({ label, customLabel, value, named, onPick }: PickerProps) {
  const id = useId();
  // The native picker reports every step of a drag; save once the owner leaves it, not on each step.
  // React's onChange is the native `input` event; the native `change` event fires when the picker closes.
  const [draft, setDraft] = useState<string | null>(null);
  const freeRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const input = freeRef.current;
    if (!input) return;
    const commit = () => {
      setDraft(null);
      onPick(input.value);
    };
    input.addEventListener('change', commit);
    return () => input.removeEventListener('change', commit);
  }, [onPick]);
  const shown = draft ?? value;
  const options = named.some((c) => c.hex === value)
    ? named
    : [{ name: `Custom ${value}`, hex: value }, ...named];
  return (
    <LabelledControl id={id} label={label}>
      <div className="color-row">
        <select id={id} className="input" value={value} onChange={(e) => onPick(e.target.value)}>
          {options.map((c) => (
            <option key={c.hex} value={c.hex}>
              {c.name}
            </option>
          ))}
        </select>
        <input
          ref={freeRef}
          type="color"
          aria-label={customLabel}
          value={shown.toLowerCase()}
          onChange={(e) => setDraft(e.target.value)}
        />
      </div>
    </LabelledControl>
  );
}

type Props = {
  color: string;
  border: string;
  onChange: (patch: { color?: string; border?: string }) => void;
};

/** The form's two colours, each with its labels and the product's named choices (docs/product.md). */
const PICKERS = [
  { key: 'color', label: 'Choose Form Color', customLabel: 'Custom form colour', named: FORM_COLORS },
  { key: 'border', label: 'Form Border', customLabel: 'Custom border colour', named: BORDER_COLORS },
] as const;

/**
 * Choose Form Color and Form Border (docs/product.md, Editor), with a warning when text on them would be hard
 * to read.
 */
export function ColorControls({ color, border, onChange }: Props) {
  const values = { color, border };
  const warnings = [
    isHardToRead(color)
      ? 'Text on this form colour is hard to read (below WCAG AA). Pick a lighter or darker colour.'
      : null,
    isHardToRead(border, 'large') ? 'The title on this border colour is hard to read (below WCAG AA).' : null,
  ].filter(Boolean);
  return (
    <div className="color-controls">
      {PICKERS.map(({ key, ...picker }) => (
        <ColorPicker key={key} {...picker} value={values[key]} onPick={(hex) => onChange({ [key]: hex })} />
      ))}
      {warnings.map((w) => (
        <p key={w} className="alert alert-info color-warning" role="status">
          {w}
        </p>
      ))}
    </div>
  );
}
