import { createContext, useContext, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Outlet } from 'react-router';
import { useAccountTimeZoneSync } from '../api/account-time-zone.ts';
import { logOutAndLeave } from '../api/log-out.ts';
import { useOwner } from '../api/use-owner.ts';
import { OwnerHeader } from './owner-header.tsx';

/** Where a screen's own items go in the owner header: before the owner's initial. */
const HeaderSlot = createContext<HTMLElement | null>(null);

/**
 * The owner's screens (the router's layout route, and '/' for a signed-in owner): the owner header once, above the
 * screen the route shows, or `children`.
 */
export function OwnerLayout({ children }: { children?: ReactNode }) {
  const owner = useOwner();
  useAccountTimeZoneSync();
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  return (
    <>
      <OwnerHeader fullName={owner.fullName} email={owner.email} onLogOut={() => void logOutAndLeave()}>
        <span ref={setSlot} className="owner-header-slot" />
      </OwnerHeader>
      <HeaderSlot.Provider value={slot}>{children ?? <Outlet />}</HeaderSlot.Provider>
    </>
  );
}

/** What a screen puts in the owner header (the dashboard's Menu, the create page's link to the responses). */
export function OwnerHeaderItems({ children }: { children: ReactNode }) {
  const slot = useContext(HeaderSlot);
  return slot ? createPortal(children, slot) : null;
}
