import { useId, useState, type ComponentProps } from 'react';
import { TextField } from './text-field.tsx';

type Props = Omit<ComponentProps<typeof TextField>, 'type' | 'action'>;

/**
 * A password input with a Show/Hide toggle. The toggle's name says what it will do ("Show password"), so it
 * carries no aria-pressed as well: a toggle that changes its own name and its pressed state reads twice.
 */
export function PasswordField({ id, ...props }: Props) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const [isVisible, setVisible] = useState(false);
  const what = props.label.toLowerCase();
  return (
    <TextField
      {...props}
      id={inputId}
      type={isVisible ? 'text' : 'password'}
      action={
        <button
          type="button"
          className="input-action"
          aria-controls={inputId}
          aria-label={isVisible ? `Hide ${what}` : `Show ${what}`}
          onClick={() => setVisible((v) => !v)}
        >
          {isVisible ? 'Hide' : 'Show'}
        </button>
      }
    />
  );
}
