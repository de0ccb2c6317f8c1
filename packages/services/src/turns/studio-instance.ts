// One studio process's place among its peers: register the instance, renew its
// heartbeat, sweep the turns of instances that died, and, on the way out,
// drain (turn-gate.ts) and unregister. The studio's boot and the crash tests'
// worker processes both run this, so the tests exercise what ships.
import type { ServiceDeps } from '../deps';
import { beatHeart, DEFAULT_INSTANCE_TIMING, forgetDeadInstances, registerInstance, unregisterInstance, type InstanceTiming } from './instances';
import { reclaimOrphanedTurns } from './reclaim-turns';
import type { DrainReport } from './turn-gate';

export interface StudioInstanceOptions {
  timing?: InstanceTiming;
  /** How often to look for dead instances' turns (default: every 2 s). */
  sweepEveryMs?: number;
  /** The only process on its database (the embedded one): free every other instance's leases at start. */
  singleProcess?: boolean;
}

export interface StudioInstance {
  readonly id: string;
  /** One sweep now (also runs on its own every `sweepEveryMs`). */
  sweep(): Promise<number>;
  /** Refuses new work, lets turns finish for `graceMs`, aborts the rest, then unregisters. */
  drain(graceMs: number): Promise<DrainReport>;
  /** Stops the timers (without draining). */
  stop(): void;
}

type InstanceDeps = Pick<ServiceDeps, 'db' | 'agent' | 'logger' | 'gate' | 'instanceId'>;

export async function startStudioInstance(deps: InstanceDeps, options: StudioInstanceOptions = {}): Promise<StudioInstance> {
  const id = deps.instanceId;
  if (id === null) throw new Error('startStudioInstance needs deps created with an instanceId');
  const timing = options.timing ?? DEFAULT_INSTANCE_TIMING;
  await registerInstance(deps.db, id);
  const sweep = async () => {
    const finished = await reclaimOrphanedTurns(deps, { instanceId: id, staleSeconds: timing.staleSeconds });
    await forgetDeadInstances(deps.db, timing.staleSeconds);
    return finished;
  };
  if (options.singleProcess) {
    const freed = await reclaimOrphanedTurns(deps, { instanceId: id, staleSeconds: timing.staleSeconds, everyOtherInstance: true });
    if (freed > 0) deps.logger.info({ freed }, "finished the previous run's interrupted turns");
  }
  let sweeping = false;
  const sweepQuietly = () => {
    if (sweeping) return;
    sweeping = true;
    sweep()
      .then((n) => n > 0 && deps.logger.info({ finished: n }, "finished turns of a studio process that stopped"))
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'orphaned turn sweep failed'))
      .finally(() => (sweeping = false));
  };
  const heart = setInterval(() => {
    beatHeart(deps.db, id).catch((error: unknown) => deps.logger.warn({ err: error }, 'instance heartbeat failed'));
  }, timing.heartbeatMs);
  const sweeper = setInterval(sweepQuietly, options.sweepEveryMs ?? 2_000);
  heart.unref();
  sweeper.unref();
  sweepQuietly();
  const stop = () => {
    clearInterval(heart);
    clearInterval(sweeper);
  };
  return {
    id,
    sweep,
    stop,
    drain: async (graceMs) => {
      const report = await deps.gate.drain(graceMs);
      stop();
      await unregisterInstance(deps.db, id).catch((error: unknown) =>
        deps.logger.warn({ err: error }, 'could not unregister the instance; it goes stale on its own'),
      );
      return report;
    },
  };
}
