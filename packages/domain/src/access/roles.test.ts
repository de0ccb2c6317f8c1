import { describe, expect, it } from 'vitest';
import { ACCESS_NEEDS, roleAllows, rolesAllowed } from './roles';
import { FAMILY_ROLES } from '../contracts/members';

describe('roles', () => {
  it('orders owner ⊇ editor ⊇ commenter ⊇ viewer', () => {
    expect(rolesAllowed('read')).toEqual(['viewer', 'commenter', 'editor', 'owner']);
    expect(rolesAllowed('comment')).toEqual(['commenter', 'editor', 'owner']);
    expect(rolesAllowed('edit')).toEqual(['editor', 'owner']);
    expect(rolesAllowed('own')).toEqual(['owner']);
  });

  it('a role that allows a need allows every weaker need', () => {
    for (const role of FAMILY_ROLES)
      ACCESS_NEEDS.forEach((need, i) => {
        if (roleAllows(role, need)) for (const weaker of ACCESS_NEEDS.slice(0, i)) expect(roleAllows(role, weaker)).toBe(true);
      });
  });
});
