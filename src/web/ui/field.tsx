import type { ComponentProps, ReactNode } from 'react';
import { useFormContext } from 'react-hook-form';
import { PasswordField } from './password-field.tsx';
import { TextField } from './text-field.tsx';

type Props = Omit<ComponentProps<'input'>, 'name' | 'value' | 'onChange' | 'onBlur' | 'ref'> & {
  name: string;
  label: string;
  hint?: ReactNode;
};

/**
 * One input of the surrounding `Form`: registers `name`, shows its error under it and marks it aria-invalid.
 * `type="password"` gets the Show/Hide toggle.
 */
export function Field({ name, type, ...props }: Props) {
  const form = useFormContext();
  const { error } = form.getFieldState(name, form.formState);
  const message = typeof error?.message === 'string' ? error.message : undefined;
  const registration = form.register(name);
  return type === 'password' ? (
    <PasswordField {...props} {...registration} error={message} />
  ) : (
    <TextField {...props} type={type} {...registration} error={message} />
  );
}
