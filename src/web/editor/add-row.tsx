import type { ComponentProps } from 'react';

type Props = Omit<ComponentProps<'input'>, 'onChange'> & {
  value: string;
  onChange: (value: string) => void;
  /** Runs on Enter in the box and on the button. */
  onAdd: () => void;
  button?: string;
};

/** A box and its Add button, as the editor's lists grow: Enter in the box adds too. */
export function AddRow({ value, onChange, onAdd, button = 'Add', ...input }: Props) {
  return (
    <div className="option-add">
      <input
        className="input"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            onAdd();
          }
        }}
        {...input}
      />
      <button type="button" className="button button-secondary button-small" onClick={onAdd}>
        {button}
      </button>
    </div>
  );
}
