'use client';
import { createContext, useContext, type ReactNode } from 'react';

export interface CurrentUser {
  id: string;
  name: string;
  email: string;
}

const CurrentUserContext = createContext<CurrentUser | null>(null);

/** The signed-in person, for what the page shows differently to them (their own messages are not named). */
export function CurrentUserProvider({ user, children }: { user: CurrentUser; children: ReactNode }) {
  return <CurrentUserContext.Provider value={user}>{children}</CurrentUserContext.Provider>;
}

export function useCurrentUser(): CurrentUser | null {
  return useContext(CurrentUserContext);
}
