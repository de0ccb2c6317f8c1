// The role × operation matrix: every thread-scoped operation of the OpenAPI document (read from the
// route contracts, so a new route is in the matrix the day it is added) called by the owner, an
// editor, a commenter, a viewer, a removed member, a stranger and a revoked API token, each on a
// family of its own. What a role may do answers anything but 401/403 (a 404 for a turn that is not
// there is still an answer); what it may not do answers 403, and a revoked token 401.
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '@trellis/db/testing';
import { ErrorBodySchema, FAMILY_ROLES, roleAllows, type AccessNeed, type FamilyRole } from '@trellis/domain';
import type * as Services from '@trellis/services';
import type { Actor } from '@trellis/services';
import type { AppContext } from './context';
import { HTTP_METHODS, type RouteContract } from './define-route';
import { isThreadScoped } from './openapi/coverage';
import { params, signUp, type Handler, type RouteSession } from '@/testing/route-session';

type Caller = FamilyRole | 'removed' | 'stranger' | 'revoked_token';
/** Refused callers first, then the roles weakest first: an operation one role may do never changes what the next is refused. */
const CALLERS: Caller[] = ['stranger', 'removed', 'revoked_token', ...FAMILY_ROLES];

interface Family {
  threadId: string;
  preferenceId: string;
  todoId: string;
  invitationId: string;
}

/** A body each thread-scoped route accepts, so the request reaches the access rule (a 422 would hide it). */
const BODIES: Record<string, (f: Family) => unknown> = {
  'PATCH /api/conversations/{id}': () => ({ title: 'Renamed' }),
  'POST /api/conversations/{id}/apply': (f) => ({ source: `${f.threadId}:1`, items: [{ kind: 'objective' }], dry_run: true }),
  'POST /api/conversations/{id}/branch': () => ({ from_turn: 1 }),
  'PUT /api/conversations/{id}/cursor': (f) => ({ thread_id: f.threadId }),
  'POST /api/conversations/{id}/document/updates': () => ({ version: 0, client_id: 'matrix-editor-0001', updates: [{ patch: [] }] }),
  'POST /api/conversations/{id}/presence': () => ({ client_id: 'matrix-tab-0001' }),
  'POST /api/conversations/{id}/comments': () => ({ anchor: { kind: 'step', turn: 1 }, body: 'Why this step?' }),
  'POST /api/conversations/{id}/shares': () => ({ scope: 'path' }),
  'POST /api/conversations/{id}/invitations': () => ({ role: 'viewer' }),
  'PATCH /api/conversations/{id}/members/{user_id}': () => ({ role: 'commenter' }),
  'POST /api/conversations/{id}/messages': () => ({ content: 'One more question' }),
  'POST /api/conversations/{id}/preferences': () => ({ text: 'Plain words' }),
  'PATCH /api/conversations/{id}/preferences/{pid}': () => ({ text: 'Plainer words' }),
  'POST /api/conversations/{id}/preferences/reorder': (f) => ({ ids: [f.preferenceId] }),
  'POST /api/conversations/{id}/todos': () => ({ text: 'Check the figures' }),
  'PATCH /api/conversations/{id}/todos/{tid}': () => ({ done: true }),
  'POST /api/conversations/{id}/todos/reorder': (f) => ({ ids: [f.todoId] }),
  'POST /api/conversations/{id}/turns/{k}/edit': () => ({ content: 'The question, put better' }),
  'PATCH /api/conversations/{id}/workspace': () => ({ objective: 'A shared objective' }),
};

/** A query each route needs (the others take none or only optional ones). */
const QUERIES: Record<string, (f: Family) => string> = {
  'GET /api/conversations/{id}/compare': (f) => `?a=${f.threadId}:0&b=${f.threadId}:1`,
  'GET /api/conversations/{id}/document/updates': () => '?since=0',
  'DELETE /api/conversations/{id}/presence': () => '?client_id=matrix-tab-0001',
  'GET /api/conversations/{id}/export': () => '?format=markdown',
  'GET /api/conversations/{id}/replay': () => '?seq=1',
};

let contracts: (RouteContract & { handler: Handler })[] = [];
let people: Record<'owner' | 'editor' | 'commenter' | 'viewer' | 'removed' | 'stranger' | 'target', { request: RouteSession['request']; userId: string }>;
let revokedToken = '';
let svc: typeof Services;
let services: AppContext['deps'];

beforeAll(async () => {
  // Test support: the studio reads its configuration from the environment through env.ts.
  process.env.DATABASE_URL = testDatabaseUrl();
  process.env.TRELLIS_DATA_DIR = path.join(tmpdir(), `trellis-access-matrix-${randomUUID()}`);
  process.env.LOG_LEVEL = 'silent';
  const { API_ROUTE_MODULES } = await import('./openapi/route-modules');
  contracts = API_ROUTE_MODULES.flatMap((module) =>
    HTTP_METHODS.flatMap((method) => {
      const handler = module[method] as (Handler & { contract?: RouteContract }) | undefined;
      return handler?.contract && isThreadScoped(handler.contract.path) ? [{ ...handler.contract, handler }] : [];
    }),
  );
  svc = await import('@trellis/services');
  services = (await (await import('./context')).getContext()).deps;
  const names = ['Owner', 'Editor', 'Commenter', 'Viewer', 'Removed', 'Stranger', 'Target'] as const;
  const signed = await Promise.all(names.map((name) => signUp(name)));
  people = Object.fromEntries(names.map((name, i) => [name.toLowerCase(), signed[i]!])) as typeof people;
  // A viewer's API token, revoked: it opens nothing.
  const tokens = (await import('@/app/api/tokens/route')) as unknown as { POST: Handler };
  const created = await tokens.POST(people.viewer.request('/api/tokens', { method: 'POST', body: JSON.stringify({ name: 'matrix' }) }), params({}));
  const token = (await created.json()) as { id: string; token: string };
  const revoke = ((await import('@/app/api/tokens/[id]/route')) as unknown as { DELETE: Handler }).DELETE;
  expect((await revoke(people.viewer.request(`/api/tokens/${token.id}`, { method: 'DELETE' }), params({ id: token.id }))).status).toBe(204);
  revokedToken = token.token;
}, 180_000);

/** A family of the owner with one of each member, a removed one, a turn, a preference, a todo and an open invitation. */
async function newFamily(): Promise<Family> {
  const owner: Actor = { userId: people.owner.userId, via: 'session' };
  const { thread_id: threadId } = await svc.createConversation(services, owner, { title: 'Matrix' });
  for (const [who, role] of [
    ['editor', 'editor'],
    ['commenter', 'commenter'],
    ['viewer', 'viewer'],
    ['removed', 'editor'],
    ['target', 'viewer'],
  ] as const) {
    const { url } = await svc.createInvitation(services.db, owner, { threadId, role });
    await svc.acceptInvitation(services.db, { userId: people[who].userId }, { token: url.split('/join/')[1]! });
  }
  await svc.removeMember(services.db, owner, { threadId, userId: people.removed.userId });
  const turn = await svc.sendTurn(services, owner, { threadId, content: 'A first question' });
  for await (const _event of turn) void _event;
  await turn.settled;
  const preference = await svc.createPreference(services, owner, { threadId, preference: { text: 'Short sentences' } });
  const todo = await svc.createTodo(services, owner, { threadId, todo: { text: 'Read it twice' } });
  const { invitation_id } = await svc.createInvitation(services.db, owner, { threadId, role: 'viewer' });
  return { threadId, preferenceId: preference.id, todoId: todo.id, invitationId: invitation_id };
}

function requestAs(caller: Caller, url: string, init: { method: string; body?: string }): Request {
  if (caller === 'revoked_token') {
    return new Request(`http://127.0.0.1:3000${url}`, {
      method: init.method,
      headers: { authorization: `Bearer ${revokedToken}`, 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: init.body }),
    });
  }
  return people[caller].request(url, init);
}

function expected(caller: Caller, need: AccessNeed): 'allowed' | 401 | 403 {
  if (caller === 'revoked_token') return 401;
  if (caller === 'removed' || caller === 'stranger') return 403;
  return roleAllows(caller, need) ? 'allowed' : 403;
}

describe('the role × operation matrix', () => {
  it('covers every thread-scoped operation of the OpenAPI document', () => {
    expect(contracts.length).toBeGreaterThanOrEqual(40);
    for (const c of contracts) {
      expect(c.access, `${c.method} ${c.path} declares its access`).toBeDefined();
      if (c.body) expect(BODIES[`${c.method} ${c.path}`], `${c.method} ${c.path} has a sample body in this test`).toBeDefined();
    }
  });

  it('answers each caller by its role on every operation', { timeout: 900_000 }, async () => {
    const wrong: string[] = [];
    for (const contract of contracts) {
      const key = `${contract.method} ${contract.path}`;
      const family = await newFamily();
      const values: Record<string, string> = {
        id: family.threadId,
        k: '1',
        turn: '1',
        pid: family.preferenceId,
        tid: family.todoId,
        invitation_id: family.invitationId,
        user_id: people.target.userId,
      };
      const url = contract.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!) + (QUERIES[key]?.(family) ?? '');
      const routeParams = Object.fromEntries(Object.keys(contract.params ?? {}).map((name) => [name, values[name]]));
      for (const caller of CALLERS) {
        const body = BODIES[key];
        const response = await contract.handler(
          requestAs(caller, url, { method: contract.method, ...(body ? { body: JSON.stringify(body(family)) } : {}) }),
          params(routeParams),
        );
        const isStream = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
        const text = isStream ? (await response.body?.cancel(), '') : await response.text();
        const want = expected(caller, contract.access!);
        const code = response.status >= 400 ? ErrorBodySchema.safeParse(JSON.parse(text || '{}')).data?.error.code : undefined;
        const isRight =
          want === 'allowed' ? ![401, 403].includes(response.status) && response.status < 500 : response.status === want;
        if (!isRight) wrong.push(`${key} as ${caller}: ${response.status} ${code ?? ''} (expected ${want})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
