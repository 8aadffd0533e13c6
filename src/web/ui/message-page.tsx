import type { ReactNode } from 'react';
import './auth.css';
import { MessageCard } from './message-card.tsx';
import { SiteHeader } from './site-header.tsx';

type Props = { icon: string; title: string; kicker?: string; children: ReactNode };

/** A page that says one thing, under the site header: an icon, a heading, a few lines and the way on. */
export function MessagePage(props: Props) {
  return (
    <>
      <SiteHeader />
      <MessageCard {...props} />
    </>
  );
}
