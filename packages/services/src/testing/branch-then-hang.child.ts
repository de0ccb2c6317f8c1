// Child process for the crash test: creates a branch whose creation stops right
// after TX1 (prints the new thread id, then hangs until the parent SIGKILLs it).
import { OfflineChatModel } from '@trellis/agent';
import { createServiceDeps } from '../deps';
import { createBranch } from '../branching/create-branch';

const [databaseUrl, userId, threadId] = process.argv.slice(2) as [string, string, string];
const deps = createServiceDeps({
  databaseUrl,
  model: { instance: new OfflineChatModel() },
  fault: async (point) => {
    if (point !== 'branch.hang-after-tx1') return;
    process.stdout.write('AFTER_TX1\n');
    await new Promise(() => undefined);
  },
});
await createBranch(deps, { userId }, { threadId, from_turn: 1 });
