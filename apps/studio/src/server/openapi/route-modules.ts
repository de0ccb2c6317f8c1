// Every route module under app/api, so the OpenAPI document can read the
// contract each handler carries. The list holds no descriptions of its own: a
// route missing here is a missing operation, which the coverage test reports
// against the route folders. The two routes that serve the document itself are
// known by their contracts (self-contracts.ts), so this list never imports them.
import { contractsOf, type RouteContract } from '@/server/define-route';
import { DOCS_CONTRACT, OPENAPI_JSON_CONTRACT } from './self-contracts';
import * as unknown from '@/app/api/[...unknown]/route';
import * as authAll from '@/app/api/auth/[...all]/route';
import * as conversationsIdApply from '@/app/api/conversations/[id]/apply/route';
import * as exportAll from '@/app/api/export/route';
import * as conversationsIdApplyTurnUndo from '@/app/api/conversations/[id]/apply/[turn]/undo/route';
import * as conversationsIdAuthorship from '@/app/api/conversations/[id]/authorship/route';
import * as conversationsIdBranch from '@/app/api/conversations/[id]/branch/route';
import * as conversationsIdChanges from '@/app/api/conversations/[id]/changes/route';
import * as conversationsIdCompare from '@/app/api/conversations/[id]/compare/route';
import * as conversationsIdCursor from '@/app/api/conversations/[id]/cursor/route';
import * as conversationsIdDocumentUpdates from '@/app/api/conversations/[id]/document/updates/route';
import * as conversationsIdEvents from '@/app/api/conversations/[id]/events/route';
import * as conversationsIdExport from '@/app/api/conversations/[id]/export/route';
import * as conversationsIdGraph from '@/app/api/conversations/[id]/graph/route';
import * as conversationsIdInvitations from '@/app/api/conversations/[id]/invitations/route';
import * as conversationsIdInvitationsInvitationId from '@/app/api/conversations/[id]/invitations/[invitation_id]/route';
import * as conversationsIdMembers from '@/app/api/conversations/[id]/members/route';
import * as conversationsIdMembersUserId from '@/app/api/conversations/[id]/members/[user_id]/route';
import * as invitationsTokenAccept from '@/app/api/invitations/[token]/accept/route';
import * as conversationsIdComments from '@/app/api/conversations/[id]/comments/route';
import * as commentsCommentId from '@/app/api/comments/[commentId]/route';
import * as conversationsIdMessages from '@/app/api/conversations/[id]/messages/route';
import * as conversationsIdPresence from '@/app/api/conversations/[id]/presence/route';
import * as conversationsIdPreferencesPid from '@/app/api/conversations/[id]/preferences/[pid]/route';
import * as conversationsIdPreferencesReorder from '@/app/api/conversations/[id]/preferences/reorder/route';
import * as conversationsIdPreferences from '@/app/api/conversations/[id]/preferences/route';
import * as conversationsIdReplay from '@/app/api/conversations/[id]/replay/route';
import * as conversationsId from '@/app/api/conversations/[id]/route';
import * as conversationsIdTodosTid from '@/app/api/conversations/[id]/todos/[tid]/route';
import * as conversationsIdTodosReorder from '@/app/api/conversations/[id]/todos/reorder/route';
import * as conversationsIdTodos from '@/app/api/conversations/[id]/todos/route';
import * as conversationsIdTurnsKChanges from '@/app/api/conversations/[id]/turns/[k]/changes/route';
import * as conversationsIdTurnsKEdit from '@/app/api/conversations/[id]/turns/[k]/edit/route';
import * as conversationsIdTurnsKRegenerate from '@/app/api/conversations/[id]/turns/[k]/regenerate/route';
import * as conversationsIdTurnsKStop from '@/app/api/conversations/[id]/turns/[k]/stop/route';
import * as conversationsIdTurnsKStream from '@/app/api/conversations/[id]/turns/[k]/stream/route';
import * as conversationsIdTurnsKRetry from '@/app/api/conversations/[id]/turns/[k]/retry/route';
import * as conversationsIdTurnsK from '@/app/api/conversations/[id]/turns/[k]/route';
import * as conversationsIdTurnsKSiblings from '@/app/api/conversations/[id]/turns/[k]/siblings/route';
import * as conversationsIdWorkspace from '@/app/api/conversations/[id]/workspace/route';
import * as conversations from '@/app/api/conversations/route';
import * as health from '@/app/api/health/route';
import * as search from '@/app/api/search/route';
import * as conversationsIdShares from '@/app/api/conversations/[id]/shares/route';
import * as sharesShareId from '@/app/api/shares/[shareId]/route';
import * as sharedToken from '@/app/api/shared/[token]/route';
import * as sharedTokenMessages from '@/app/api/shared/[token]/messages/route';
import * as sharedTokenReplay from '@/app/api/shared/[token]/replay/route';
import * as sharedTokenExport from '@/app/api/shared/[token]/export/route';
import * as sharedTokenCopy from '@/app/api/shared/[token]/copy/route';
import * as tokensId from '@/app/api/tokens/[id]/route';
import * as tokens from '@/app/api/tokens/route';
import * as studies from '@/app/api/studies/route';
import * as studiesId from '@/app/api/studies/[id]/route';
import * as studiesIdParticipants from '@/app/api/studies/[id]/participants/route';
import * as studiesIdExport from '@/app/api/studies/[id]/export/route';
import * as studiesIdParticipantsParticipantId from '@/app/api/studies/[id]/participants/[participant_id]/route';
import * as joinSlug from '@/app/api/join/[slug]/route';
import * as joinSlugFinish from '@/app/api/join/[slug]/finish/route';
import * as joinSlugMe from '@/app/api/join/[slug]/me/route';
import * as transcripts from '@/app/api/transcripts/route';
import * as transcriptsImport from '@/app/api/transcripts/import/route';
import * as transcriptsInspect from '@/app/api/transcripts/inspect/route';

export const API_ROUTE_MODULES: Record<string, unknown>[] = [
  unknown,
  authAll,
  conversationsIdApply,
  exportAll,
  conversationsIdApplyTurnUndo,
  conversationsIdAuthorship,
  conversationsIdBranch,
  conversationsIdChanges,
  conversationsIdCompare,
  conversationsIdCursor,
  conversationsIdDocumentUpdates,
  conversationsIdEvents,
  conversationsIdExport,
  conversationsIdGraph,
  conversationsIdInvitations,
  conversationsIdInvitationsInvitationId,
  conversationsIdMembers,
  conversationsIdMembersUserId,
  invitationsTokenAccept,
  conversationsIdComments,
  commentsCommentId,
  conversationsIdMessages,
  conversationsIdPresence,
  conversationsIdPreferencesPid,
  conversationsIdPreferencesReorder,
  conversationsIdPreferences,
  conversationsIdReplay,
  conversationsId,
  conversationsIdTodosTid,
  conversationsIdTodosReorder,
  conversationsIdTodos,
  conversationsIdTurnsKChanges,
  conversationsIdTurnsKEdit,
  conversationsIdTurnsKRegenerate,
  conversationsIdTurnsKStop,
  conversationsIdTurnsKStream,
  conversationsIdTurnsKRetry,
  conversationsIdTurnsK,
  conversationsIdTurnsKSiblings,
  conversationsIdWorkspace,
  conversations,
  health,
  search,
  conversationsIdShares,
  sharesShareId,
  sharedToken,
  sharedTokenMessages,
  sharedTokenReplay,
  sharedTokenExport,
  sharedTokenCopy,
  tokensId,
  tokens,
  studies,
  studiesId,
  studiesIdParticipants,
  studiesIdExport,
  studiesIdParticipantsParticipantId,
  joinSlug,
  joinSlugFinish,
  joinSlugMe,
  transcripts,
  transcriptsImport,
  transcriptsInspect,
];

/** Every route's contract: the modules' and the two that serve the API's description. */
export const API_ROUTE_CONTRACTS: RouteContract[] = [...API_ROUTE_MODULES.flatMap(contractsOf), OPENAPI_JSON_CONTRACT, DOCS_CONTRACT];
