import * as path from 'path';
import { InputError } from '../errors';
import { writeOutputDir } from '../io/output-dir';
import { kustomizationFile, objectFiles, statusFile, KUSTOMIZATION_FILE } from '../state/output-files';
import { renderApp } from '../render/render-app';
import { RepoPeers } from '../render/repo-peers';
import { AppCommand, AppTransition, OutputSnapshot, transitionApp } from '../state/app-state';
import { appIdleLines, transitionLine } from '../state/messages';
import type { LoadedApp } from '../spec/loaded-app';
import { AppLocation, readOutput, usesConfig } from './inputs';
import { CommonOptions, RunContext } from './context';
import { loadRepo } from './load-repo';

export interface PlannedWrites {
  readonly writes: readonly PendingWrite[];
  /** Apps the command leaves as they are: why, and what would help. */
  readonly idle: readonly string[];
}

/** Every named app's next output for `command`, computed before anything is written so an error in one writes nothing anywhere. */
export async function planWrites(
  ctx: RunContext,
  args: readonly string[],
  opts: CommonOptions,
  command: AppCommand,
): Promise<PlannedWrites> {
  const { apps, peers } = await loadRepo(ctx, args, opts);
  const byName = usesConfig({ cwd: ctx.cwd, args, ...opts });
  const writes: PendingWrite[] = [];
  const idle: string[] = [];
  for (const { loc, app } of apps) {
    const w = planWrite(ctx, loc, app, command, peers);
    if (w) writes.push(w);
    else idle.push(...idleApp(ctx, loc, app, command, byName));
  }
  return { writes, idle };
}

/** Why `command` leaves this app as it is, per rollout, with the command that would help. */
function idleApp(ctx: RunContext, loc: AppLocation, app: LoadedApp, command: AppCommand, byName: boolean): string[] {
  const rel = (p: string | undefined) => (p ? path.relative(ctx.cwd, p) || '.' : '');
  const target =
    loc.source === '-' ? `-f - ${rel(loc.output)}` : byName ? loc.name : `${rel(loc.source)} ${rel(loc.output)}`;
  return appIdleLines(command, target.trim(), app, readOutput(loc, ctx.cwd).status);
}

/** Writes each pending output and prints what moved; `afterEach` runs after each write (local git mode commits it). */
export function writeAll(ctx: RunContext, planned: PlannedWrites, afterEach?: (w: PendingWrite) => void): void {
  for (const w of planned.writes) {
    writeOutputDir(w.output, w.files, w.remove);
    ctx.stdout(w.summary);
    afterEach?.(w);
  }
  for (const line of planned.idle) ctx.stdout(line + '\n');
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
    const before = output.status?.rollouts.find((x) => x.name === a.rollout);
    const after = status.rollouts.find((x) => x.name === a.rollout);
    return `${app.name}/${transitionLine(a.rollout, a.action, before, after, r.plan.steps.length)}`;
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
