import type { FamilyRole } from '@trellis/domain';

/** How a role reads in the studio: what the person may do. */
export const ROLE_LABELS: Record<FamilyRole, string> = {
  owner: 'Owner',
  editor: 'Can edit',
  commenter: 'Can comment',
  viewer: 'Can read',
};
