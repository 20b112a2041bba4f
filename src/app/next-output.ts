import * as path from 'path';
import { printable } from '../diagnostics';
import { InputError, StateError } from '../errors';
import { Drift } from '../state/drift';
import { describeDrift, detectDrift } from './drift';
import { contentDigest, kustomizationFile, objectFiles, statusFile, KUSTOMIZATION_FILE } from '../state/output-files';
import { renderApp } from '../render/render-app';
import { checkRendered } from '../io/validate-k8s';
import { RepoPeers } from '../render/repo-peers';
import { AppCommand, AppTransition, OutputSnapshot, transitionApp } from '../state/app-state';
import type { AppStatus } from '../state/status';
import { transitionLine } from '../state/messages';
import type { LoadedApp } from '../spec/loaded-app';
import type { KubeObject } from '../model/kube';
import { AppLocation } from './inputs';
import { readAppOutput } from './output-state';
import { RunContext } from './context';

/** What to do with output files changed by hand: refuse (advance), overwrite (--force), or warn (the PR shows the diff). */
export type DriftPolicy = 'refuse' | 'overwrite' | 'warn';

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
export function planWrite(...args: Parameters<typeof prepareWrite>): PendingWrite | undefined {
  const prepared = prepareWrite(...args);
  return prepared && finishWrite(args[0], prepared);
}

/** An app's next output up to its rendered objects: planWrite before the objects are serialized. */
export interface PreparedWrite {
  readonly loc: AppLocation & { readonly output: string };
  readonly app: LoadedApp;
  readonly command: AppCommand;
  readonly output: OutputSnapshot;
  readonly transition: AppTransition;
  readonly rendered: readonly KubeObject[];
}

/** planWrite's first part: the transition, the drift check and the rendered objects; undefined when there is nothing to do. */
export function prepareWrite(
  ctx: RunContext,
  loc: AppLocation,
  app: LoadedApp,
  command: AppCommand,
  peers: RepoPeers,
  drift: DriftPolicy = 'refuse',
  /** The output as read under this run's lock (withPlannedWrites); else it is read here. */
  read?: OutputSnapshot,
): PreparedWrite | undefined {
  if (!loc.output)
    throw new InputError(
      [],
      `${command.kind} needs an output directory: rollgen ${command.kind} SOURCE OUT, or an app from rollgen.yaml`,
    );
  const output = readAppOutput(ctx, loc, app, peers, read);
  // A fleet target runs the steps its wave runs (docs/fleet.md).
  const wave =
    (command.kind === 'advance' || command.kind === 'promote') && loc.waveSteps
      ? { ...command, only: loc.waveSteps }
      : command;
  const moved = transitionApp(app, output, wave, loc.track, loc.removal);
  const t = moved.actions.length > 0 ? moved : plainUpdate(app, output, moved, command, loc, peers);
  if (!t) return undefined;
  if (drift !== 'overwrite') guardDrift(ctx, loc, detectDrift(app, loc, output, peers), drift);
  const rendered = renderApp(app, t.states, loc.track, peers);
  checkRendered(rendered);
  return { loc: { ...loc, output: loc.output }, app, command, output, transition: t, rendered };
}

/** planWrite's second part: the files, given the rendered objects as text (`texts`: serializeValue of each, when done elsewhere). */
export function finishWrite(ctx: RunContext, p: PreparedWrite, texts?: readonly string[]): PendingWrite {
  return withStatusFile(draftWrite(ctx, p, texts));
}

/** A write with every file but the status file, and the status that file records (it holds the others' digests). */
export interface DraftWrite {
  readonly write: PendingWrite;
  readonly status: AppStatus;
}

/** The draft's write with its status file last; `text`: serializeValue of statusDocument(status), when done elsewhere. */
export function withStatusFile(d: DraftWrite, text?: string): PendingWrite {
  return { ...d.write, files: [...d.write.files, statusFile(d.status, text)] };
}

/** finishWrite but the status file's text. */
export function draftWrite(ctx: RunContext, p: PreparedWrite, texts?: readonly string[]): DraftWrite {
  const { loc, app, output, transition: t } = p;
  const manifests = objectFiles(p.rendered, texts);
  const names = manifests.map((f) => f.path);
  const previous = output.status?.files ?? [];
  const digests = Object.fromEntries(manifests.map((f) => [f.path, contentDigest(f.content)]));
  const status = { ...t.status, files: names, digests };
  const files = [...manifests, kustomizationFile(output.kustomization, names, previous)];
  const remove = previous.filter((q) => !names.includes(q) && q !== KUSTOMIZATION_FILE);
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
  const write = {
    app: app.name,
    output: loc.output,
    files,
    remove,
    before: output,
    command: p.command,
    transition: t,
    loaded: app,
    summary: lines.join('\n') + `\nwrote ${printable(path.relative(ctx.cwd, loc.output) || '.')}\n`,
  };
  return { write, status };
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
  // An edited state is never proposed on (a PR would skip or repeat steps): only --force accepts it.
  if (policy === 'warn' && !drift.some((d) => d.kind === 'state')) {
    for (const l of lines) ctx.stderr(`warning: ${l}; this PR reverts it\n`);
    return;
  }
  throw new StateError(
    `${loc.name}: output changed by hand since rollgen wrote it; nothing was written:\n` +
      lines.map((l) => `  ${l}\n`).join('') +
      `  put the change in the source, or rerun with --force to overwrite it`,
  );
}
