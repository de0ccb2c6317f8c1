// Node-only start-up (database, migrations, sweeper) behind the runtime check, so
// the edge bundle never sees it.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { boot } = await import('./server/boot');
    await boot();
  }
}
