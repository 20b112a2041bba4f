import * as path from 'path';
import { printable } from '../diagnostics';
import { InputError } from '../errors';
import { writeOutputDir } from '../io/output-dir';
import { lockOutputs } from '../io/output-lock';
import { recoverOutputDir } from '../io/output-recovery';
import { describePhase } from '../render/phase';
import { kustomizationFile, objectFiles, statusFile, KUSTOMIZATION_FILE } from '../state/output-files';
import { renderApp } from '../render/render-app';
import { RepoPeers } from '../render/repo-peers';
import { AppCommand, AppTransition, OutputSnapshot, transitionApp } from '../state/app-state';
import { renderPhaseOf } from '../state/lifecycle';
import type { LoadedApp } from '../spec/loaded-app';
import { AppLocation, readOutput } from './inputs';
import { CommonOptions, RunContext } from './context';
import { loadRepo } from './load-repo';

export interface PlannedWrites {
  readonly names: readonly string[];
  readonly writes: readonly PendingWrite[];
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
  opts: CommonOptions,
  command: AppCommand,
  write: (planned: PlannedWrites) => void,
): Promise<void> {
  const { apps, peers } = await loadRepo(ctx, args, opts);
  const outputs = apps.flatMap((a) => (a.loc.output ? [a.loc.output] : []));
  const lock = await lockOutputs(outputs, { waitMs: lockWaitMs(ctx), notify: ctx.stderr });
  try {
    for (const note of outputs.flatMap(recoverOutputDir)) ctx.stderr(`note: ${note}\n`);
    const writes = apps.map(({ loc, app }) => planWrite(ctx, loc, app, command, peers));
    write({ names: apps.map((a) => a.loc.name), writes: writes.filter((w): w is PendingWrite => w !== undefined) });
  } finally {
    lock.release();
  }
}

/** Writes each pending output and prints what moved; `afterEach` runs after each write (local git mode commits it). */
export function writeAll(
  ctx: RunContext,
  planned: PlannedWrites,
  command: AppCommand,
  afterEach?: (w: PendingWrite) => void,
): void {
  for (const w of planned.writes) {
    writeOutputDir(w.output, changedFiles(w), w.remove);
    ctx.stdout(w.summary);
    afterEach?.(w);
  }
  if (planned.writes.length === 0) ctx.stdout(`nothing to ${command.kind}: ${planned.names.join(', ')} up to date\n`);
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
}

/** The files one command would write to an app's output; undefined when there is nothing to do. Pure apart from reading the output. */
export function planWrite(
  ctx: RunContext,
  loc: AppLocation,
  app: LoadedApp,
  command: AppCommand,
  peers: RepoPeers,
): PendingWrite | undefined {
  if (!loc.output)
    throw new InputError(
      [],
      `${command.kind} needs an output directory: rollgen ${command.kind} SOURCE OUT, or an app from rollgen.yaml`,
    );
  const output = readOutput(loc, ctx.cwd);
  const t = transitionApp(app, output, command, loc.track, loc.removal);
  if (t.actions.length === 0) return undefined;
  const manifests = objectFiles(renderApp(app, t.states, loc.track, peers));
  const names = manifests.map((f) => f.path);
  const previous = output.status?.files ?? [];
  const status = { ...t.status, files: names };
  const files = [...manifests, kustomizationFile(output.kustomization, names, previous), statusFile(status)];
  const remove = previous.filter((p) => !names.includes(p) && p !== KUSTOMIZATION_FILE);
  const lines = t.actions.map((a) => {
    const r = app.rollouts.find((x) => x.spec.name === a.rollout)!;
    const s = status.rollouts.find((x) => x.name === a.rollout);
    return `${app.name}/${a.rollout}: ${a.action} -> ${describePhase(renderPhaseOf(s), r.plan.steps.length)}`;
  });
  return {
    app: app.name,
    output: loc.output,
    files,
    remove,
    before: output,
    command,
    transition: t,
    summary: lines.join('\n') + `\nwrote ${printable(path.relative(ctx.cwd, loc.output) || '.')}\n`,
  };
}
