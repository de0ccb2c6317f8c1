import type { FamilyRole } from '../contracts/members';

/** What an operation needs of its caller, weakest first; each role holds the needs before it. */
export const ACCESS_NEEDS = ['read', 'comment', 'edit', 'own'] as const;
export type AccessNeed = (typeof ACCESS_NEEDS)[number];

const LEAST_ROLE_FOR: Record<AccessNeed, FamilyRole> = { read: 'viewer', comment: 'commenter', edit: 'editor', own: 'owner' };
const RANK: Record<FamilyRole, number> = { viewer: 0, commenter: 1, editor: 2, owner: 3 };

/** owner ⊇ editor ⊇ commenter ⊇ viewer: true when `role` may do what `need` asks. */
export function roleAllows(role: FamilyRole, need: AccessNeed): boolean {
  return RANK[role] >= RANK[LEAST_ROLE_FOR[need]];
}

/** The roles that may do what `need` asks, weakest first. */
export function rolesAllowed(need: AccessNeed): FamilyRole[] {
  return (Object.keys(RANK) as FamilyRole[]).filter((role) => roleAllows(role, need));
}
