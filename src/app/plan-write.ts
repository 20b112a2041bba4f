import * as path from 'path';
import { InputError } from '../errors';
import { writeOutputDir } from '../io/output-dir';
import { describePhase } from '../render/phase';
import { kustomizationFile, objectFiles, statusFile, KUSTOMIZATION_FILE } from '../state/output-files';
import { renderApp } from '../render/render-app';
import { RepoPeers } from '../render/repo-peers';
import { AppCommand, AppTransition, OutputSnapshot, holdNotes, transitionApp } from '../state/app-state';
import { renderPhaseOf } from '../state/lifecycle';
import type { LoadedApp } from '../spec/loaded-app';
import { AppLocation, readOutput } from './inputs';
import { CommonOptions, RunContext } from './context';
import { loadRepo } from './load-repo';

/** Every named app's next output for `command`, computed before anything is written so an error in one writes nothing anywhere. */
export async function planWrites(
  ctx: RunContext,
  args: readonly string[],
  opts: CommonOptions,
  command: AppCommand,
): Promise<{ names: readonly string[]; writes: readonly PendingWrite[] }> {
  const { apps, peers } = await loadRepo(ctx, args, opts);
  if (command.kind === 'advance')
    for (const { app } of apps) for (const note of holdNotes(app)) ctx.stdout(`${note}\n`);
  const writes = apps.map(({ loc, app }) => planWrite(ctx, loc, app, command, peers));
  return { names: apps.map((a) => a.loc.name), writes: writes.filter((w): w is PendingWrite => w !== undefined) };
}

/** Writes each pending output and prints what moved; `afterEach` runs after each write (local git mode commits it). */
export function writeAll(
  ctx: RunContext,
  planned: { names: readonly string[]; writes: readonly PendingWrite[] },
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
    summary: lines.join('\n') + `\nwrote ${path.relative(ctx.cwd, loc.output) || '.'}\n`,
  };
}
