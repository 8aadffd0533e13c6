import type { ComponentProps, ReactNode } from 'react';

type Props = Omit<ComponentProps<'button'>, 'type' | 'disabled'> & {
  /** The action is under way: the button is disabled and says `pendingLabel` instead of its own words. */
  pending: boolean;
  pendingLabel: string;
  children: ReactNode;
};

/** A button that starts an action, disabled and saying what it is doing while the action is under way. */
export function ActionButton({ pending, pendingLabel, children, ...button }: Props) {
  return (
    <button type="button" disabled={pending} {...button}>
      {pending ? pendingLabel : children}
    </button>
  );
}
