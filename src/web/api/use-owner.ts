import { useQuery } from '@tanstack/react-query';
import { profileQuery } from './accounts.ts';
import { readSession, saveProfile } from './session.ts';

/** The signed-in owner: id, and the profile (stored copy first, refreshed from the server). */
export function useOwner() {
  const session = readSession();
  const profile = useQuery({
    ...profileQuery(session?.id ?? ''),
    enabled: Boolean(session),
    initialData: session?.profile ?? undefined,
    staleTime: 60_000,
    select: (p) => {
      saveProfile(p);
      return p;
    },
  });
  return { id: session?.id ?? '', fullName: profile.data?.fullName ?? '', email: profile.data?.email ?? '' };
}
