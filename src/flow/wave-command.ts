import { StateError } from '../errors';
import { readOutput } from '../app/inputs';
import type { LoadedEntry } from '../app/load-repo';
import type { WaveConfig } from '../io/config-waves';
import type { AppCommand } from '../state/app-state';
import { appIdleLines } from '../state/messages';
import type { Action, AppFlowState, RollgenPull } from './decide';
import { TargetPart, waveApp, waveProposal } from './fleet-proposal';
import { withSection } from './marker';
import type { Proposal } from './proposal';
import { LocalSession, proposalsFor } from './session';

/** `abort|promote|retry --wave W`: commands that move a whole wave as one PR (or one commit) rather than one per target. */
export const isWaveCommand = (command: AppCommand, wave: string | undefined): wave is string =>
  wave !== undefined && (command.kind === 'abort' || command.kind === 'promote' || command.kind === 'retry');

/** The wave `--wave` named (inputs.ts has refused an unknown one, with the known names). */
export function namedWave(waves: readonly WaveConfig[], name: string): { wave: WaveConfig; number: number } {
  const number = waves.findIndex((w) => w.name === name) + 1;
  if (number === 0)
    throw new StateError(`--wave ${name}: no such wave; its waves: ${waves.map((w) => w.name).join(', ')}`);
  return { wave: waves[number - 1], number };
}

/**
 * `abort|promote|retry --wave W --pr` (docs/fleet.md): ONE PR for the wave, built as the automatic
 * wave abort of `onFailure: wave` is (fleet-pr.ts): the branch `rollgen/wave_3aW/abort` (or
 * `/retry`; `promote` names what it moves to, `/step-3` or `/promote`, as the per-target promote
 * does, so it takes over the wave's open step PR on that branch), one commit touching every target
 * that needs the command, listed in the body; the targets with nothing to do are named below the
 * table with why. None to move is refused with each target's reason, as the per-target command is.
 */
export function waveCommandState(s: LocalSession, name: string, command: AppCommand): WaveCommand {
  const { wave, number } = namedWave(s.config.waves, name);
  const entries = s.apps.filter((e) => wave.targets.includes(e.app.name));
  const proposals = proposalsFor(s, entries, command, 'command');
  const parts: TargetPart[] = entries.flatMap((entry, i) => (proposals[i] ? [{ entry, proposal: proposals[i] }] : []));
  const idle = entries.flatMap((entry, i) => (proposals[i] ? [] : idleLines(s, entry, command)));
  const at = { wave, number, count: s.config.waves.length };
  const held = parts.length === 0 && command.kind === 'retry' ? heldStep(s, wave, entries) : [];
  if (held.length > 0)
    return {
      state: { app: waveApp(wave.name), proposal: waveProposal(at, held, s.config.pr.labels), ignoreHold: true },
      moving: [],
    };
  if (parts.length === 0) throw new StateError([`wave ${wave.name}: no target to ${command.kind}`, ...idle].join('\n'));
  const proposal = untouched(waveProposal(at, parts, s.config.pr.labels), idle);
  return { state: { app: waveApp(wave.name), proposal, ignoreHold: true }, moving: parts.map((p) => p.entry.app.name) };
}

/**
 * `retry --wave` with no target aborted: the wave can only be held by its step PR a person closed;
 * the wave's next step is proposed again (its targets that have a step to take, at most `parallel`),
 * as the per-target retry proposes a held app's step.
 */
function heldStep(s: LocalSession, wave: WaveConfig, entries: readonly LoadedEntry[]): TargetPart[] {
  const proposals = proposalsFor(s, entries, { kind: 'advance' }, 'flow');
  const parts = entries.flatMap((entry, i) => (proposals[i] ? [{ entry, proposal: proposals[i] }] : []));
  return parts.slice(0, wave.parallel ?? parts.length);
}

/** The wave's PR state for decide(), and the targets it moves. */
export interface WaveCommand {
  readonly state: AppFlowState;
  readonly moving: readonly string[];
}

/**
 * The open rollgen PRs of the targets the wave PR moves (a step or command PR of one of them):
 * closed as superseded by it, as a per-target command closes that target's other open PRs.
 */
export function supersededTargetPulls(
  moving: readonly string[],
  pulls: ReadonlyMap<string, readonly RollgenPull[]>,
): Action[] {
  return moving.flatMap((app) =>
    (pulls.get(app) ?? [])
      .filter((x) => x.pr.state === 'open')
      .map((x): Action => ({ kind: 'close', pr: x.pr, why: 'superseded', ...(x.marker ? { marker: x.marker } : {}) })),
  );
}

function idleLines(s: LocalSession, entry: LoadedEntry, command: AppCommand): string[] {
  const status = readOutput(entry.loc, s.ctx.cwd).status;
  return appIdleLines(command, entry.loc.name, entry.app, status, entry.loc.track);
}

/** The targets left as they are, with why: a reviewer sees the whole wave, not only what moves. */
function untouched(p: Proposal, idle: readonly string[]): Proposal {
  if (idle.length === 0) return p;
  return { ...p, body: withSection(p.body, ['Not touched:', '', ...idle.map((l) => `- ${l}`)].join('\n')) };
}
