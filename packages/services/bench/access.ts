// `npm run bench` — what sharing a family costs a turn. Side by side in one run, on a scratch
// database, with the instant offline model: turns sent by an editor (a member, so the access rule
// reads the member row in the turn's own statements) to a family shared with 50 people and to one
// shared with 1, in alternating rounds. The rule is a primary-key probe of `family_members`, so the
// family's size should not show: goal `access.turn_p50_ratio_50_members_over_1` ≤ 1.2.
import { createScratchDatabase } from '@trellis/db/testing';
import { createServiceDeps } from '../src/deps';
import { migrateAll } from '../src/migrate-all';
import { createConversation } from '../src/conversations/create-conversation';
import { acceptInvitation, createInvitation } from '../src/members/invitations';
import { runTurn, message } from './harness';
import { seedUser } from './seed-history';
import { ratio, timeRounds } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 80);
const MEMBERS = 50;

const database = await createScratchDatabase('trellis_bench_access');
try {
  await migrateAll({ databaseUrl: database.url });
  const deps = createServiceDeps({ databaseUrl: database.url, model: { provider: 'offline' }, poolSize: 5 });
  const owner = { userId: await seedUser(deps.sql) };
  const editor = { userId: await seedUser(deps.sql) };
  const join = async (threadId: string, person: { userId: string }, role: 'viewer' | 'editor') => {
    const { url } = await createInvitation(deps.db, owner, { threadId, role });
    await acceptInvitation(deps.db, person, { token: url.split('/join/')[1]! });
  };
  const small = (await createConversation(deps, owner, { title: 'one member' })).thread_id;
  const large = (await createConversation(deps, owner, { title: 'fifty members' })).thread_id;
  await join(small, editor, 'editor');
  await join(large, editor, 'editor');
  for (let i = 1; i < MEMBERS; i++) await join(large, { userId: await seedUser(deps.sql) }, 'viewer');

  let turn = 0;
  const timings = await timeRounds(
    {
      one: () => runTurn(deps, editor, small, message(++turn)),
      fifty: () => runTurn(deps, editor, large, message(++turn)),
    },
    { runs: RUNS, warmup: 3 },
  );
  await deps.close();

  const turnRatio = ratio(timings.fifty.p50, timings.one.p50);
  console.log(
    JSON.stringify({
      name: 'services.access',
      unit: 'ms',
      turn_by_editor_1_member: timings.one,
      turn_by_editor_50_members: timings.fifty,
      'access.turn_p50_ratio_50_members_over_1': turnRatio,
      goal: 'access.turn_p50_ratio_50_members_over_1 ≤ 1.2',
      meets_goal: { 'access.turn_p50_ratio_50_members_over_1': turnRatio <= 1.2 },
    }),
  );
} finally {
  await database.dispose();
}
