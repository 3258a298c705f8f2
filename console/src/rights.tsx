import { createContext, type ReactNode, useContext } from 'react';
import type { SessionUser } from './api.ts';

/**
 * What a person may do, as the session answer lists it (`user.rights`, from the API's one role table): the
 * console offers an action only when the API would allow it, and says why when it does not.
 */
export type Right =
  | 'read'
  | 'manageKeys'
  | 'manageWebhooks'
  | 'managePassports'
  | 'manageTeam'
  | 'manageCompany';

const SignedIn = createContext<SessionUser | null>(null);

/** Makes the signed-in person known to every page below it. */
export function SignedInProvider({ user, children }: { user: SessionUser; children: ReactNode }) {
  return <SignedIn.Provider value={user}>{children}</SignedIn.Provider>;
}

/** Whether the signed-in person may do what `right` covers (false outside a signed-in frame). */
export function useRight(right: Right): boolean {
  const user = useContext(SignedIn);
  return user?.rights.includes(right) ?? false;
}

/** The signed-in person's role, for a sentence that names it. */
export function useRole(): string {
  return useContext(SignedIn)?.role ?? 'none';
}

/** Why an action is not offered: the person's role, and who can change it. */
export function NotAllowed({ action, className = 'notice' }: { action: string; className?: string }) {
  return (
    <p className={className}>
      Your role is <strong>{useRole()}</strong>, which cannot {action}. An owner can change roles in Settings
      › Team.
    </p>
  );
}
