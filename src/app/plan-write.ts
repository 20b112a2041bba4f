import * as path from 'path';
import { printable } from '../diagnostics';
import { InputError, StateError } from '../errors';
import { Drift } from '../state/drift';
import { describeDrift, detectDrift } from './drift';
import { OutputDirWrite, OutputDirWrites, startOutputWrites, writeOutputDirs } from '../io/output-dir';
import { OutputLock, PreparedDirs, lockOutputs, prepareOutputDirs } from '../io/output-lock';
import { recoverOutputDirs } from '../io/output-recovery';
import { contentDigest, kustomizationFile, objectFiles, statusFile, KUSTOMIZATION_FILE } from '../state/output-files';
import { renderApp } from '../render/render-app';
import { checkRendered } from '../io/validate-k8s';
import { RepoPeers } from '../render/repo-peers';
import { AppCommand, AppTransition, OutputSnapshot, holdNotes, transitionApp } from '../state/app-state';
import { appIdleLines, transitionLine } from '../state/messages';
import type { LoadedApp } from '../spec/loaded-app';
import { AppLocation, usesConfig } from './inputs';
import { readAppOutput } from './output-state';
import { CommonOptions, RunContext } from './context';
import { loadRepo } from './load-repo';

/** advance/abort/promote/retry options: --force overwrites output files changed by hand (drift). */
export interface ChangeOptions extends CommonOptions {
  readonly force?: boolean;
}

/** What to do with output files changed by hand: refuse (advance), overwrite (--force), or warn (the PR shows the diff). */
export type DriftPolicy = 'refuse' | 'overwrite' | 'warn';

export interface PlannedWrites {
  readonly writes: readonly PendingWrite[];
  /** Apps the command leaves as they are: why, and what would help. */
  readonly idle: readonly string[];
  /** With `stageEarly`: every write, already staged while the others were planned; `writeAll` commits them. */
  readonly staged?: OutputDirWrites;
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
  const { apps, peers } = await loadRepo(ctx, args, opts, {
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
  const drift: DriftPolicy = opts.force ? 'overwrite' : 'refuse';
  const byName = usesConfig({ cwd: ctx.cwd, args, ...opts });
  const staged = stageEarly ? startOutputWrites() : undefined;
  try {
    const writes: PendingWrite[] = [];
    const idle: string[] = [];
    for (const { loc, app, output } of apps) {
      const w = planWrite(ctx, loc, app, command, peers, drift, output);
      if (!w) idle.push(...idleApp(ctx, loc, app, command, byName, peers, output));
      else {
        writes.push(w);
        staged?.add(dirWrite(w));
        // The staged files are created by the thread pool while the next app is planned: let it run.
        if (staged) await new Promise((resolve) => setImmediate(resolve));
      }
    }
    await write({ writes, idle, staged });
    await staged?.discard(); // what `write` did not commit (nothing, once it has)
  } catch (e) {
    await staged?.discard();
    throw e;
  } finally {
    await held.release();
  }
}

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
  const status = readAppOutput(ctx, loc, app, peers, read).status;
  return appIdleLines(command, commandTarget(ctx.cwd, loc, byName), app, status, loc.track);
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

export interface PendingWrite {
  readonly app: string;
  readonly output: string;
  readonly files: ReturnType<typeof objectFiles>;
  readonly remove: readonly string[];
  readonly summary: string;
  /** The output before and the transition, for PR titles, bodies and commit messages. */
  readonly before: OutputSnapshot;
  readonly command: AppCommand;
  readonly transition: AppTransition;
  /** The app as loaded, for its gates (local git mode). */
  readonly loaded: LoadedApp;
}

/** The files one command would write to an app's output; undefined when there is nothing to do. Pure apart from reading the output. */
export function planWrite(
  ctx: RunContext,
  loc: AppLocation,
  app: LoadedApp,
  command: AppCommand,
  peers: RepoPeers,
  drift: DriftPolicy = 'refuse',
  /** The output as read under this run's lock (withPlannedWrites); else it is read here. */
  read?: OutputSnapshot,
): PendingWrite | undefined {
  if (!loc.output)
    throw new InputError(
      [],
      `${command.kind} needs an output directory: rollgen ${command.kind} SOURCE OUT, or an app from rollgen.yaml`,
    );
  const output = readAppOutput(ctx, loc, app, peers, read);
  const moved = transitionApp(app, output, command, loc.track, loc.removal);
  const t = moved.actions.length > 0 ? moved : plainUpdate(app, output, moved, command, loc, peers);
  if (!t) return undefined;
  if (drift !== 'overwrite') guardDrift(ctx, loc, detectDrift(app, loc, output, peers), drift);
  const rendered = renderApp(app, t.states, loc.track, peers);
  checkRendered(rendered);
  const manifests = objectFiles(rendered);
  const names = manifests.map((f) => f.path);
  const previous = output.status?.files ?? [];
  const digests = Object.fromEntries(manifests.map((f) => [f.path, contentDigest(f.content)]));
  const status = { ...t.status, files: names, digests };
  const files = [...manifests, kustomizationFile(output.kustomization, names, previous), statusFile(status)];
  const remove = previous.filter((p) => !names.includes(p) && p !== KUSTOMIZATION_FILE);
  const lines = t.actions.map((a) => {
    const r = app.rollouts.find((x) => x.spec.name === a.rollout);
    if (!r) return `${app.name}/${a.rollout}: ${a.action}`;
    const before = output.status?.rollouts.find((x) => x.name === a.rollout);
    const after = status.rollouts.find((x) => x.name === a.rollout);
    return `${app.name}/${transitionLine(
      a.rollout,
      a.action,
      before,
      after,
      r.plan.steps.length,
      r.plan.steps.map((st) => st.name),
    )}`;
  });
  return {
    app: app.name,
    output: loc.output,
    files,
    remove,
    before: output,
    command,
    transition: t,
    loaded: app,
    summary: lines.join('\n') + `\nwrote ${printable(path.relative(ctx.cwd, loc.output) || '.')}\n`,
  };
}

/**
 * Kruise `spec.disabled`: no canary, the output takes the source as written. `advance` writes it
 * whenever what it renders differs from the output (a first deploy, a new template, any source
 * edit), as a plain rolling update of the Deployment.
 */
function plainUpdate(
  app: LoadedApp,
  output: OutputSnapshot,
  t: AppTransition,
  command: AppCommand,
  loc: AppLocation,
  peers: RepoPeers,
): AppTransition | undefined {
  const disabled = app.disabledRollouts ?? [];
  if (command.kind !== 'advance' || disabled.length === 0) return undefined;
  const files = objectFiles(renderApp(app, t.states, loc.track, peers));
  const names = new Set(files.map((f) => f.path));
  const same =
    files.every((f) => output.texts?.get(f.path) === f.content) &&
    (output.status?.files ?? []).every((f) => names.has(f));
  if (same && output.status) return undefined;
  const revision = contentDigest(files.map((f) => f.content).join('\n')).slice(0, 10);
  const actions = disabled.map((rollout) => ({ rollout, action: 'plain rolling update (spec.disabled: no canary)' }));
  const history = [...t.status.history, ...actions.map((a) => ({ ...a, step: 0, revision }))];
  return { ...t, actions, status: { ...t.status, history } };
}

/** A person's edit to the output is never lost silently: refused (exit 1) unless --force, or a warning where a PR shows the diff. */
function guardDrift(ctx: RunContext, loc: AppLocation, drift: readonly Drift[], policy: DriftPolicy): void {
  if (drift.length === 0) return;
  const lines = describeDrift(drift, loc, ctx.cwd);
  if (policy === 'warn') {
    for (const l of lines) ctx.stderr(`warning: ${l}; this PR reverts it\n`);
    return;
  }
  throw new StateError(
    `${loc.name}: output changed by hand since rollgen wrote it; nothing was written:\n` +
      lines.map((l) => `  ${l}\n`).join('') +
      `  put the change in the source, or rerun with --force to overwrite it`,
  );
}
