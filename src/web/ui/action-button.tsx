import type { ComponentProps, ReactNode } from 'react';

type Props = Omit<ComponentProps<'button'>, 'type' | 'disabled' | 'className'> & {
  /** The smaller size, for a button in a menu or a table row. */
  small?: boolean;
  /** The action is under way: the button is disabled and says `pendingLabel` instead of its own words. */
  pending: boolean;
  pendingLabel: string;
  children: ReactNode;
};

/**
 * A secondary button that starts an action, disabled and saying what it is doing while the action is under way.
 */
export function ActionButton({ small = false, pending, pendingLabel, children, ...button }: Props) {
  const className = `button button-secondary${small ? ' button-small' : ''}`;
  return (
    <button type="button" className={className} disabled={pending} {...button}>
      {pending ? pendingLabel : children}
    </button>
  );
}
