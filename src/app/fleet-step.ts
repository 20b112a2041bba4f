import type { WaveConfig } from '../io/config-waves';
import type { RunContext } from './context';
import { locateWithRepo, usesConfig } from './inputs';

import { ChangeOptions, PlannedWrites, writeAll } from './plan-write';

/**
 * Which targets move in the next wave step (docs/fleet.md). Pure: told which apps have something to
 * write, it answers without git or GitHub, so local mode and the PR flow share it.
 *
 * The live wave is the first whose targets are not all settled (an app with nothing to advance runs
 * its source's current pod template, fully promoted). A later wave starts only when every earlier
 * wave is settled at the current source: the revision it rolls out is the one that passed them. A
 * source change mid-fleet unsettles wave 1 again, so the fleet starts over there; later waves wait,
 * untouched.
 */
export interface WaveStep<W extends { readonly app: string }> {
  /** The wave moving now, with its position (1-based); undefined when every wave is settled. */
  readonly live?: { readonly wave: WaveConfig; readonly number: number };
  /** The writes of the live wave that move in this step (at most `parallel`). */
  readonly moving: readonly W[];
  /** Writes of the live wave beyond `parallel`, and of later waves: they wait, untouched. */
  readonly waiting: readonly { readonly write: W; readonly wave: WaveConfig; readonly reason: string }[];
  /** Writes of apps in no wave (apps without targets): they move as they always have. */
  readonly free: readonly W[];
}

/**
 * `aborted`: apps whose rollout failed (aborted, nothing to advance): their wave is live until
 * they recover, so later waves never start; with `onFailure: wave` the rest of the wave holds too.
 */
export function nextWaveStep<W extends { readonly app: string }>(
  waves: readonly WaveConfig[],
  writes: readonly W[],
  aborted: ReadonlySet<string> = new Set(),
): WaveStep<W> {
  const waveOf = new Map<string, number>();
  waves.forEach((w, i) => w.targets.forEach((t) => waveOf.set(t, i)));
  const free = writes.filter((w) => !waveOf.has(w.app));
  const fleet = writes.filter((w) => waveOf.has(w.app));
  const failed = [...aborted].filter((a) => waveOf.has(a));
  if (fleet.length === 0 && failed.length === 0) return { moving: [], waiting: [], free };
  const index = Math.min(...[...fleet.map((w) => w.app), ...failed].map((a) => waveOf.get(a)!));
  const wave = waves[index];
  const inWave = fleet.filter((w) => waveOf.get(w.app) === index);
  const failedHere = failed.filter((a) => waveOf.get(a) === index);
  const held = failedHere.length > 0 && wave.onFailure === 'wave';
  const parallel = held ? 0 : (wave.parallel ?? inWave.length);
  const moving = inWave.slice(0, parallel);
  const why =
    failedHere.length > 0
      ? `wave ${wave.name} (wave ${index + 1}) failed: ${failedHere.join(', ')} aborted`
      : `wave ${wave.name} (wave ${index + 1}) has not completed`;
  const waiting = [
    ...inWave.slice(parallel).map((write) => ({
      write,
      wave,
      reason: held
        ? `${why}, and onFailure: wave holds the whole wave`
        : `wave ${wave.name} moves ${parallel} target(s) at a time`,
    })),
    ...fleet
      .filter((w) => waveOf.get(w.app)! > index)
      .map((write) => ({
        write,
        wave: waves[waveOf.get(write.app)!],
        reason: why,
      })),
  ];
  return { live: { wave, number: index + 1 }, moving, waiting, free };
}

/**
 * `advance --commit` of any target in a wave loads every target of every wave: which wave moves
 * depends on all of them (docs/fleet.md). Other apps stay as named.
 */
export function withWholeFleet<O extends ChangeOptions>(
  ctx: RunContext,
  args: readonly string[],
  opts: O,
): { args: readonly string[]; opts: O } {
  const req = { cwd: ctx.cwd, args, ...opts };
  if (!usesConfig(req)) return { args, opts };
  const { named, waves } = locateWithRepo(req);
  const inWaves = new Set(waves.flatMap((w) => w.targets));
  if (!named.some((l) => inWaves.has(l.name))) return { args, opts };
  const { target: _picked, wave: _wave, ...rest } = opts;
  const names = [...new Set([...named.map((l) => l.name).filter((n) => !inWaves.has(n)), ...inWaves])];
  return { args: names, opts: rest as O };
}

/**
 * `advance` (no --commit) with waves: the live wave's next step only, written at once (you are the
 * gate, as for any app); later waves are left as they are.
 */
export async function writeWaveStep(ctx: RunContext, planned: PlannedWrites): Promise<void> {
  const { waves, aborted } = planned.fleet!;
  const step = nextWaveStep(waves, planned.writes, aborted);
  await writeAll(ctx, { ...planned, writes: [...step.free, ...step.moving] });
  for (const w of step.waiting) ctx.stdout(`${w.write.app}: waits in wave ${w.wave.name}: ${w.reason}\n`);
}

/** A target about to start a canary in its wave, with the pod template revision(s) it would roll out. */
export interface StartingTarget {
  readonly app: string;
  readonly revisions: readonly string[];
}

/**
 * The pinned revision (docs/fleet.md): a later wave rolls out exactly the pod template the earlier
 * waves ran. When every target of the earlier waves runs one revision, a target starting a canary
 * with any other (an overlay-only change to it, say) holds its wave, with why and what to do; when
 * the earlier clusters run different templates by design, there is no single revision to pin. Pure.
 */
export function pinnedRevisionHold(
  waves: readonly WaveConfig[],
  number: number,
  ran: ReadonlyMap<string, readonly string[]>,
  starting: readonly StartingTarget[],
): string | undefined {
  if (number <= 1 || starting.length === 0) return undefined;
  const earlier = new Set(waves.slice(0, number - 1).flatMap((w) => w.targets.flatMap((t) => ran.get(t) ?? [])));
  if (earlier.size !== 1) return undefined;
  const [pinned] = earlier;
  const off = starting.filter((s) => s.revisions.some((r) => r !== pinned));
  if (off.length === 0) return undefined;
  const what = off.map((s) => `${s.app} (${[...new Set(s.revisions)].join(', ')})`).join(', ');
  return `wave ${waves[number - 1].name} holds: ${what} would roll out a pod template the earlier waves never ran (they run ${pinned}); change the source of every target alike, so the new revision starts at wave 1, or revert the change to these targets`;
}
