// `npm run bench` — the conversation list at 100× the conversations: a page of
// `GET /api/conversations?limit=50` (first page and a page deep in the list)
// for a user with 100 and one with 10,000 conversations (a fifth of them
// branches, so families stay together across pages).
import type postgres from 'postgres';
import { createScratchDatabase } from '@trellis/db/testing';
import { createServiceDeps } from '../src/deps';
import { listConversations } from '../src/conversations/list-conversations';
import { seedUser } from './seed-history';
import { ratio, time, type Timing } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 25);
const PAGE = 50;

async function seedConversations(sql: postgres.Sql, userId: string, count: number): Promise<void> {
  const roots = Math.ceil(count * 0.8);
  await sql`insert into conversations (thread_id, user_id, root_thread_id, title, created_at, updated_at)
    select 'th_' || ${userId} || '_' || g, ${userId}, 'th_' || ${userId} || '_' || g, 'Conversation ' || g,
      now() - make_interval(secs => ${count} - g), now() - make_interval(secs => ${count} - g)
    from generate_series(1, ${roots}::int) g`;
  await sql`insert into conversations (thread_id, user_id, root_thread_id, title, created_at, updated_at)
    select 'th_' || ${userId} || '_b' || g, ${userId}, 'th_' || ${userId} || '_' || (1 + (g * 7) % ${roots}), 'Branch ' || g, now(), now()
    from generate_series(1, ${count - roots}::int) g`;
  await sql`insert into conversation_branches (thread_id, parent_thread_id, branch_point_turn, user_id, status)
    select 'th_' || ${userId} || '_b' || g, 'th_' || ${userId} || '_' || (1 + (g * 7) % ${roots}), 0, ${userId}, 'active'
    from generate_series(1, ${count - roots}::int) g`;
  await sql`analyze conversations`;
}

const database = await createScratchDatabase('trellis_bench');
try {
  const deps = createServiceDeps({ databaseUrl: database.url, model: { provider: 'offline' } });
  const sizes = [100, 10_000] as const;
  const pages: Record<number, { first_page: Timing; deep_page: Timing }> = {};
  for (const size of sizes) {
    const userId = await seedUser(deps.sql);
    await seedConversations(deps.sql, userId, size);
    const actor = { userId };
    // a cursor about half-way down (or the second page of a short list)
    let cursor: string | undefined;
    const walk = Math.max(1, Math.floor(size / PAGE / 2));
    for (let i = 0; i < walk; i++) {
      const page = await listConversations(deps, actor, { limit: PAGE, ...(cursor === undefined ? {} : { cursor }) });
      cursor = page.next_cursor ?? undefined;
    }
    pages[size] = {
      first_page: await time(() => listConversations(deps, actor, { limit: PAGE }), { runs: RUNS * 2 }),
      deep_page: await time(() => listConversations(deps, actor, { limit: PAGE, ...(cursor === undefined ? {} : { cursor }) }), { runs: RUNS * 2 }),
    };
  }
  const small = pages[100]!;
  const large = pages[10_000]!;
  const first = ratio(large.first_page.p95, small.first_page.p95);
  const deep = ratio(large.deep_page.p95, small.deep_page.p95);
  console.log(
    JSON.stringify({
      name: 'services.list',
      unit: 'ms',
      page_size: PAGE,
      conversations_100: small,
      conversations_10000: large,
      list: {
        p95_ratio_10000_over_100: { value: Math.max(first, deep), goal: '≤ 1.5', meets_goal: Math.max(first, deep) <= 1.5 },
        first_page_p95_ratio_10000_over_100: first,
        deep_page_p95_ratio_10000_over_100: deep,
      },
    }),
  );
  await deps.close();
} finally {
  await database.dispose();
}
