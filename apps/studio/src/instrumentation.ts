// Node-only start-up (database, migrations, sweeper) behind the runtime check, so
// the edge bundle never sees it. `NEXT_RUNTIME` is replaced at build time by
// Next itself; it is not configuration and never read through env.ts.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { getContext, startSweeper } = await import('./server/context');
    await getContext();
    startSweeper();
  }
}
