// Bulk history for benchmarks, written straight in SQL (a thousand real turns
// would time the model, not the studio): a thread with `turns` turns, a 100 KB
// document, 50 artifacts, and snapshots/messages for every turn; families of
// branches with turns of their own.
import { createHash, randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import { newThreadId } from '@trellis/domain';

export async function seedUser(sql: postgres.Sql): Promise<string> {
  const id = randomUUID();
  await sql`insert into "user" (id, name, email) values (${id}, 'Bench', ${`bench-${id}@example.test`})`;
  return id;
}

export function documentOf(bytes: number): string {
  const line = 'Trellises carry the growth of a climbing plant along a structure of lattice. ';
  return `# Bench document\n\n${line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes)}`;
}

export async function seedThreadWithHistory(
  sql: postgres.Sql,
  options: { userId: string; turns: number; documentBytes: number; artifacts: number; rootThreadId?: string; threadId?: string },
): Promise<string> {
  const threadId = options.threadId ?? newThreadId(randomUUID);
  const doc = documentOf(options.documentBytes);
  const hash = createHash('sha256').update(doc).digest('hex');
  const reply = 'A considered reply of about five hundred characters. '.repeat(10);
  await sql.begin(async (tx) => {
    await tx`insert into conversations (thread_id, user_id, root_thread_id, title, objective, turn_index, message_count)
      values (${threadId}, ${options.userId}, ${options.rootThreadId ?? threadId}, 'Bench', 'Measure things', ${options.turns}, ${2 * options.turns})`;
    await tx`insert into documents (thread_id, title, content) values (${threadId}, 'Bench', ${doc})`;
    await tx`insert into document_blobs (hash, content) values (${hash}, ${doc}) on conflict do nothing`;
    await tx`insert into preferences (thread_id, position, text, locked)
      select ${threadId}, i, 'Preference ' || i, i % 2 = 0 from generate_series(0, 4) i`;
    await tx`insert into todos (thread_id, position, text, done, depth)
      select ${threadId}, i, 'Todo ' || i, false, i % 3 from generate_series(0, 9) i`;
    await tx`insert into workspace_snapshots (thread_id, turn_index, objective, document_title, document_hash, preferences, todos, user_message, captured_at)
      select ${threadId}, t, 'Measure things', 'Bench', ${hash},
        '[{"text":"Preference 0","locked":true},{"text":"Preference 1","locked":false}]'::jsonb,
        '[{"text":"Todo 0","done":false,"depth":0},{"text":"Todo 1","done":false,"depth":1}]'::jsonb,
        'Question number ' || t, now() - make_interval(secs => ${options.turns}::int - t)
      from generate_series(1, ${options.turns}::int) t`;
    await tx`insert into messages (thread_id, turn_index, role, content, created_at)
      select ${threadId}, t, r.role, case when r.role = 'user' then 'Question number ' || t else ${reply} end,
        now() - make_interval(secs => ${options.turns}::int - t)
      from generate_series(1, ${options.turns}::int) t cross join (values ('user', 0), ('assistant', 1)) r(role, o)
      order by t, r.o`;
    if (options.artifacts > 0) {
      await tx`insert into artifacts (thread_id, turn_index, kind, title, content)
        select ${threadId}, greatest(1, (i * (${options.turns}::int - 1)) / ${options.artifacts}::int), 'note', 'Artifact ' || i, repeat('x', 400)
        from generate_series(0, ${options.artifacts - 1}::int) i`;
    }
  });
  return threadId;
}

/** A family: a root with `rootTurns` turns and `branches` branches of `branchTurns` turns each. */
export async function seedFamily(
  sql: postgres.Sql,
  options: { userId: string; rootTurns: number; branches: number; branchTurns: number },
): Promise<{ rootThreadId: string; leafThreadId: string }> {
  const rootThreadId = await seedThreadWithHistory(sql, { userId: options.userId, turns: options.rootTurns, documentBytes: 2_000, artifacts: 5 });
  let leafThreadId = rootThreadId;
  for (let b = 0; b < options.branches; b++) {
    const threadId = newThreadId(randomUUID);
    const k = 1 + ((b * 37) % (options.rootTurns - 1));
    await sql.begin(async (tx) => {
      await tx`insert into conversations (thread_id, user_id, root_thread_id, title, turn_index)
        values (${threadId}, ${options.userId}, ${rootThreadId}, 'Bench', ${k + options.branchTurns})`;
      await tx`insert into conversation_branches (thread_id, parent_thread_id, branch_point_turn, user_id, status)
        values (${threadId}, ${rootThreadId}, ${k}, ${options.userId}, 'active')`;
      await tx`insert into documents (thread_id) values (${threadId})`;
      await tx`insert into workspace_snapshots (thread_id, turn_index, user_message, captured_at)
        select ${threadId}, t, 'Branch question ' || t, now() - make_interval(secs => 1000 - t) from generate_series(${k + 1}::int, ${k + options.branchTurns}::int) t`;
      await tx`insert into messages (thread_id, turn_index, role, content)
        select ${threadId}, t, r, 'Branch message ' || t from generate_series(${k + 1}::int, ${k + options.branchTurns}::int) t cross join (values ('user'), ('assistant')) v(r)`;
    });
    leafThreadId = threadId;
  }
  return { rootThreadId, leafThreadId };
}
