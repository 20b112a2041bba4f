import type { WaveConfig } from '../io/config-waves';
import * as path from 'path';
import { OutputDirWrite, OutputDirWrites, startOutputWrites, writeOutputDirs } from '../io/output-dir';
import { OutputLock, PreparedDirs, lockOutputs, prepareOutputDirs } from '../io/output-lock';
import { recoverOutputDirs } from '../io/output-recovery';
import { yamlPool } from '../io/yaml-pool';
import { RepoPeers } from '../render/repo-peers';
import { AppCommand, OutputSnapshot, holdNotes } from '../state/app-state';
import { appIdleLines } from '../state/messages';
import type { LoadedApp } from '../spec/loaded-app';
import { AppLocation, usesConfig } from './inputs';
import { readAppOutput } from './output-state';
import { detectDrift, driftDiagnostics } from './drift';
import { formatDiagnostic } from '../diagnostics';
import { CommonOptions, RunContext } from './context';
import { RepoEntry, loadRepo } from './load-repo';
import { DriftPolicy, PendingWrite, PreparedWrite, draftWrite, prepareWrite, withStatusFile } from './next-output';
import { statusDocument } from '../state/status';

/** advance/abort/promote/retry options: --force overwrites output files changed by hand (drift). */
export interface ChangeOptions extends CommonOptions {
  readonly force?: boolean;
}

export interface PlannedWrites {
  readonly writes: readonly PendingWrite[];
  /** Apps the command leaves as they are: why, and what would help. */
  readonly idle: readonly string[];
  /** With `stageEarly`: every write, already staged while the others were planned; `writeAll` commits them. */
  readonly staged?: OutputDirWrites;
  /** rollgen.yaml `waves:` (docs/fleet.md), and the loaded apps with an aborted rollout (they hold their wave). */
  readonly fleet?: {
    readonly waves: readonly WaveConfig[];
    readonly aborted: ReadonlySet<string>;
    /** Each loaded app's output directory (a wave's bake counts from the last commit touching its outputs). */
    readonly outputs: ReadonlyMap<string, string>;
    /** The stable revisions each loaded app runs (a later wave rolls out only what the earlier ones run). */
    readonly running: ReadonlyMap<string, readonly string[]>;
  };
}

/**
 * Every named app's next output for `command`, computed before anything is written so an error in
 * one writes nothing anywhere, and handed to `write` while each output is locked: from reading a
 * status to writing its next state no other run may write the same output (two would both move
 * from the same state and lose a step). An interrupted earlier write is completed or discarded first.
 */
export async function withPlannedWrites(
  ctx: RunContext,
  args: readonly string[],
  opts: ChangeOptions,
  command: AppCommand,
  write: (planned: PlannedWrites) => void | Promise<void>,
  { stageEarly = false } = {},
): Promise<void> {
  let prepared: PreparedDirs | undefined;
  let lock: OutputLock | undefined;
  let locking = false;
  const outputsOf = (locs: readonly AppLocation[]) => locs.flatMap((l) => (l.output ? [l.output] : []));
  const { apps, peers, waves } = await loadRepo(ctx, args, opts, {
    located: (named) => (prepared = prepareOutputDirs(outputsOf(named))),
    // Locked (and what an interrupted run left completed) before the outputs are read: what this
    // run reads of them is what it replaces, and it reads each once.
    beforeOutputs: async (loaded) => {
      const outputs = outputsOf(loaded.map((a) => a.loc));
      locking = true;
      lock = await lockOutputs(outputs, { waitMs: lockWaitMs(ctx), notify: ctx.stderr, prepared });
      for (const note of recoverOutputDirs(outputs)) ctx.stderr(`note: ${note}\n`);
    },
  }).catch(async (e: unknown) => {
    // A lock taken removes the directories it made; lockOutputs discards them itself when it fails.
    if (lock) await lock.release();
    else if (!locking) await prepared?.discard();
    throw e;
  });
  const held = lock!;
  if (command.kind === 'advance')
    for (const { app } of apps) for (const note of holdNotes(app)) ctx.stdout(`${note}\n`);
  const staged = stageEarly ? startOutputWrites() : undefined;
  try {
    const planned = await planWrites(ctx, { args, opts, command, apps, peers, staged });
    await write(
      waves.length > 0
        ? {
            ...planned,
            fleet: { waves, aborted: abortedApps(apps), outputs: outputsByApp(apps), running: runningByApp(apps) },
          }
        : planned,
    );
    await staged?.discard(); // what `write` did not commit (nothing, once it has)
  } catch (e) {
    await staged?.discard();
    throw e;
  } finally {
    await held.release();
  }
}

/** Each app's next output (staged as soon as it is known, with `staged`), or why the command leaves it. */
async function planWrites(
  ctx: RunContext,
  run: {
    args: readonly string[];
    opts: ChangeOptions;
    command: AppCommand;
    apps: readonly RepoEntry[];
    peers: RepoPeers;
    staged?: OutputDirWrites;
  },
): Promise<PlannedWrites> {
  const { command, peers, staged } = run;
  const drift: DriftPolicy = run.opts.force ? 'overwrite' : 'refuse';
  const byName = usesConfig({ cwd: ctx.cwd, args: run.args, ...run.opts });
  const idle: string[] = [];
  const prepared: PreparedWrite[] = [];
  for (const { loc, app, output } of run.apps) {
    const p = prepareWrite(ctx, loc, app, command, peers, drift, output);
    if (p) prepared.push(p);
    else idle.push(...idleApp(ctx, loc, app, command, byName, peers, output));
  }
  // The YAML of the objects, then of the status files (they hold the objects' digests), is most of
  // the work left: shared with a second thread when there are many apps.
  const pool = yamlPool(prepared.length);
  const drafts = await pool.serializeGroups(
    prepared.map((p) => p.rendered),
    (i, texts) => draftWrite(ctx, prepared[i], texts),
  );
  const writes = await pool.serializeGroups(
    drafts.map((d) => [statusDocument(d.status)]),
    async (i, [text]) => {
      const w = withStatusFile(drafts[i], text);
      staged?.add(dirWrite(w));
      // The staged files are created on libuv's threads; yielding lets their callbacks start the next ones.
      if (staged) await new Promise((resolve) => setImmediate(resolve));
      return w;
    },
  );
  return { writes, idle, staged };
}

const abortedApps = (apps: readonly RepoEntry[]): Set<string> =>
  new Set(apps.filter((a) => a.output?.status?.rollouts.some((r) => r.phase === 'Aborted')).map((a) => a.app.name));

const outputsByApp = (apps: readonly RepoEntry[]): Map<string, string> =>
  new Map(apps.flatMap((a) => (a.loc.output ? [[a.app.name, a.loc.output] as const] : [])));

const runningByApp = (apps: readonly RepoEntry[]): Map<string, string[]> =>
  new Map(apps.map((a) => [a.app.name, (a.output?.status?.rollouts ?? []).map((r) => r.stableRevision)] as const));

const dirWrite = (w: PendingWrite): OutputDirWrite => ({ dir: w.output, files: changedFiles(w), remove: w.remove });

/** Why `command` leaves this app as it is, per rollout, with the command that would help. */
function idleApp(
  ctx: RunContext,
  loc: AppLocation,
  app: LoadedApp,
  command: AppCommand,
  byName: boolean,
  peers: RepoPeers,
  read?: OutputSnapshot,
): string[] {
  const output = readAppOutput(ctx, loc, app, peers, read);
  // Nothing to write, so nothing overwrites the drift either: still told, as status and validate tell it.
  for (const d of driftDiagnostics(detectDrift(app, loc, output, peers), loc, output, ctx.cwd))
    ctx.stderr(formatDiagnostic(d) + '\n');
  return appIdleLines(command, commandTarget(ctx.cwd, loc, byName), app, output.status, loc.track);
}

/** How the user names an app on the command line, for the commands rollgen suggests: its name, or SOURCE OUT. */
export function commandTarget(cwd: string, loc: AppLocation, byName: boolean): string {
  // Without an output (`status SOURCE`), the commands rollgen suggests still need one: OUT stands for it.
  const rel = (p: string | undefined) => (p ? path.relative(cwd, p) || '.' : 'OUT');
  const target =
    loc.source === '-' ? `-f - ${rel(loc.output)}` : byName ? loc.name : `${rel(loc.source)} ${rel(loc.output)}`;
  return target.trim();
}

/**
 * Writes every pending output and prints what moved. Without `afterEach` all outputs are written
 * together (their disk flushes shared); with it (local git mode commits each output), one by one,
 * so an output is written only once the one before is committed.
 */
export async function writeAll(
  ctx: RunContext,
  planned: PlannedWrites,
  afterEach?: (w: PendingWrite) => void,
): Promise<void> {
  const batches = afterEach ? planned.writes.map((w) => [w]) : [planned.writes];
  for (const batch of batches) {
    if (planned.staged && !afterEach) await planned.staged.commit();
    else await writeOutputDirs(batch.map(dirWrite));
    for (const w of batch) {
      ctx.written?.(w);
      ctx.stdout(w.summary);
      afterEach?.(w);
    }
  }
  for (const line of planned.idle) ctx.stdout(line + '\n');
}

/** ROLLGEN_LOCK_TIMEOUT (seconds, default 120): how long a run waits for another one writing the same output. */
function lockWaitMs(ctx: RunContext): number {
  const value = Number((ctx.env ?? process.env).ROLLGEN_LOCK_TIMEOUT ?? 120);
  return Number.isFinite(value) && value >= 0 ? value * 1000 : 120_000;
}

/** Only files whose bytes change are written: an advance of one rollout among many rewrites little. */
export function changedFiles(w: PendingWrite): PendingWrite['files'] {
  return w.files.filter((f) => w.before.texts?.get(f.path) !== f.content);
}
