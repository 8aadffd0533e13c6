import type { MouseEvent, ReactNode } from 'react';
import { navigate } from './fill-navigation.ts';

/** A link between the customer's screens: a plain click stays in the page, a modified one opens as usual. */
export function FillLink({
  to,
  state,
  className,
  children,
}: {
  to: string;
  /** Left in the history entry of the screen it opens (`navigationState`). */
  state?: unknown;
  className?: string;
  children: ReactNode;
}) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to, { state });
  };
  return (
    <a href={to} className={className} onClick={onClick}>
      {children}
    </a>
  );
}
