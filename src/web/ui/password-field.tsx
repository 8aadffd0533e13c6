import { useState, type ComponentProps } from 'react';
import { TextField } from './text-field.tsx';

type Props = Omit<ComponentProps<typeof TextField>, 'type' | 'action'>;

/** A password input with a Show/Hide toggle that keeps focus order and announces its state. */
export function PasswordField(props: Props) {
  const [isVisible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={isVisible ? 'text' : 'password'}
      action={
        <button
          type="button"
          className="input-action"
          aria-pressed={isVisible}
          aria-label={isVisible ? `Hide ${props.label.toLowerCase()}` : `Show ${props.label.toLowerCase()}`}
          onClick={() => setVisible((v) => !v)}
        >
          {isVisible ? 'Hide' : 'Show'}
        </button>
      }
    />
  );
}
