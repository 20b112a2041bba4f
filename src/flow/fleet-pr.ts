import { AnalysisRecordError, ScmError } from '../errors';
import { readOutput } from '../app/inputs';
import type { LoadedEntry } from '../app/load-repo';
import { nextWaveStep, pinnedRevisionHold } from '../app/fleet-step';
import type { WaveConfig } from '../io/config-waves';
import { closedByPerson, newestAbort } from './abort-hold';
import type { Action, RollgenPull } from './decide';
import type { RolloutStatus } from '../state/status';
import { runMatrix } from './fleet-summary';
import { TargetPart, WaveAt, waveApp, waveOf, waveProposal } from './fleet-proposal';
import { combineSignals, sharedReads } from './fleet-signals';
import { abortProposal, readSignals, withGateReport } from './gate-edge';
import { GateSignals, gateFailure } from './gate-signals';
import { BaseHistory, readAppHistories } from './history';
import type { AppRound } from './pr-command';
import { Proposal } from './proposal';
import { FlowSession, LocalSession, proposalsFor } from './session';

/** A fleet target with what it would propose and its history on the base. */
interface Member {
  readonly app: string;
  readonly entry: LoadedEntry;
  readonly proposal?: Proposal;
  readonly history: BaseHistory;
  readonly aborted: boolean;
  readonly progressing: boolean;
  readonly rollouts: readonly RolloutStatus[];
}

/** The fleet's part of one `rollgen pr` run: read locally before the scan, turned into rounds after it. */
export interface FleetPrep {
  /** Apps in no wave: they keep their per-app flow. */
  readonly free: readonly LoadedEntry[];
  /** Histories of the targets that move now: the one scan reads closed PRs back to the oldest. */
  readonly pending: readonly BaseHistory[];
  rounds(pulls: ReadonlyMap<string, readonly RollgenPull[]>, recent: () => readonly string[]): Promise<AppRound[]>;
  /** After the run: the fleet matrix in the log and, in the Action, its job summary. */
  summarize(rounds: readonly AppRound[], actions: readonly (readonly Action[])[]): void;
}

/**
 * `rollgen pr` with waves (docs/fleet.md): the targets in waves move as the fleet, the live wave's
 * next step as ONE PR (fleet-proposal.ts) decided like an app's (its gate, its health, its hold).
 * Which targets move is nextWaveStep's answer, as in local mode. No request is made here.
 */
export function prepareFleet(s: FlowSession, dryRun: boolean): FleetPrep {
  const waves = s.config.waves;
  const inWaves = new Set(waves.flatMap((w) => w.targets));
  const fleet = s.apps.filter((e) => inWaves.has(e.app.name));
  const free = s.apps.filter((e) => !inWaves.has(e.app.name));
  if (fleet.length === 0) return { free, pending: [], rounds: async () => [], summarize: () => undefined };
  const members = readMembers(s, fleet);
  const writes = members.filter((m) => m.proposal);
  const step = nextWaveStep(waves, writes, new Set(members.filter((m) => m.aborted).map((m) => m.app)));
  for (const w of waitingByWave(step.waiting)) s.ctx.stdout(`${w}\n`);
  return {
    free,
    pending: step.moving.map((m) => m.history),
    rounds: async (pulls, recent) => {
      const idle = waves.flatMap((w, i) => (i + 1 === step.live?.number ? [] : staleRound(w, pulls)));
      if (!step.live) return idle;
      const at = { ...step.live, count: waves.length };
      const live = await liveRound(s, { at, members, moving: step.moving, pulls, recent, dryRun });
      return [live, ...idle];
    },
    summarize: (rounds, actions) => {
      const targets = members.map((m) => ({ app: m.app, rollouts: m.rollouts, pending: m.proposal !== undefined }));
      const matrix = runMatrix(
        waves,
        targets,
        rounds.map((r, i) => ({ app: r.state.app, actions: actions[i] })),
      );
      if (!matrix) return;
      s.ctx.stdout(matrix.text);
      s.ctx.fleet?.(matrix.markdown);
    },
  };
}

/**
 * `pr --dry-run --offline` with waves: the live wave's step as the one PR it would be (in place of its
 * first moving target), no PR for the other targets in waves; apps in no wave as proposed.
 */
export function offlineFleet(
  s: LocalSession,
  entries: readonly LoadedEntry[],
  proposals: readonly (Proposal | undefined)[],
): (Proposal | undefined)[] {
  const waves = s.config.waves;
  const inWaves = new Set(waves.flatMap((w) => w.targets));
  const members = entries.flatMap((entry, i) =>
    inWaves.has(entry.app.name) ? [{ i, app: entry.app.name, entry, proposal: proposals[i] }] : [],
  );
  const aborted = members.filter((m) => statusOf(s, m.entry).some((r) => r.phase === 'Aborted'));
  const step = nextWaveStep(
    waves,
    members.filter((m) => m.proposal),
    new Set(aborted.map((m) => m.app)),
  );
  const out = proposals.map((p, i) => (inWaves.has(entries[i].app.name) ? undefined : p));
  if (!step.live || step.moving.length === 0) return out;
  const at = { ...step.live, count: waves.length };
  const parts = step.moving.map((m) => ({ entry: m.entry, proposal: m.proposal! }));
  out[step.moving[0].i] = waveProposal(at, parts, s.config.pr.labels);
  return out;
}

const statusOf = (s: LocalSession, entry: LoadedEntry) => readOutput(entry.loc, s.ctx.cwd).status?.rollouts ?? [];

function readMembers(s: FlowSession, fleet: readonly LoadedEntry[]): Member[] {
  const proposals = proposalsFor(s, fleet, { kind: 'advance' }, 'flow');
  const histories = readAppHistories(
    s.edges.git,
    s.checkout.root,
    fleet.map((e) => ({ source: e.loc.source, output: e.loc.output! })),
    s.checkout.shallow,
  );
  return fleet.map((entry, i) => {
    const rollouts = statusOf(s, entry);
    return {
      app: entry.app.name,
      entry,
      ...(proposals[i] ? { proposal: proposals[i] } : {}),
      history: histories[i],
      aborted: rollouts.some((r) => r.phase === 'Aborted'),
      progressing: rollouts.some((r) => r.phase === 'Progressing'),
      rollouts,
    };
  });
}

/** One line per waiting wave, not one per target: a fleet of hundreds stays readable. */
function waitingByWave(waiting: readonly { write: Member; wave: WaveConfig; reason: string }[]): string[] {
  const byWave = new Map<string, { apps: string[]; reason: string }>();
  for (const w of waiting) {
    const seen = byWave.get(w.wave.name) ?? { apps: [], reason: w.reason };
    seen.apps.push(w.write.app);
    byWave.set(w.wave.name, seen);
  }
  return [...byWave].map(([wave, w]) => `wave ${wave}: ${w.apps.join(', ')} wait: ${w.reason}`);
}

/** A wave that does not move now but has rollgen PRs open: decide closes what no longer applies. */
function staleRound(wave: WaveConfig, pulls: ReadonlyMap<string, readonly RollgenPull[]>): AppRound[] {
  const own = pulls.get(waveApp(wave.name)) ?? [];
  if (!own.some((x) => x.pr.state === 'open')) return [];
  return [{ state: { app: waveApp(wave.name) }, pulls: own, history: {}, onFailure: 'abort' }];
}

interface LiveWave {
  readonly at: WaveAt;
  readonly members: readonly Member[];
  readonly moving: readonly Member[];
  readonly pulls: ReadonlyMap<string, readonly RollgenPull[]>;
  readonly recent: () => readonly string[];
  readonly dryRun: boolean;
}

/** The live wave's round: its step PR, the combined gate signals, and the abort PR of what failed. */
async function liveRound(s: FlowSession, live: LiveWave): Promise<AppRound> {
  const { at, moving, pulls } = live;
  const app = waveApp(at.wave.name);
  const own = pulls.get(app) ?? [];
  const base = { pulls: own, onFailure: moving[0]?.entry.loc.onFailure ?? ('abort' as const) };
  // A failed wave's step PR still open is closed first (decide: obsolete); then the wave says why it waits.
  const stale = own.some((x) => x.pr.state === 'open' && x.marker?.origin === 'flow');
  const hold =
    personsPull(at.wave, pulls) ?? bakeHold(s, live) ?? pinHold(s, live) ?? (stale ? undefined : failedHold(live));
  if (!hold && moving.length === 0) return { state: { app }, ...base, history: {} };
  if (hold) return { state: { app }, ...base, history: {}, ...(hold ? { hold } : {}) };
  const shared = { ...s, scm: sharedReads(s.scm) };
  const signals: (GateSignals | undefined)[] = [];
  try {
    for (const m of moving) signals.push(await readSignals(shared, m.entry, m.history, live.recent, live.dryRun));
  } catch (e) {
    if (!(e instanceof ScmError || e instanceof AnalysisRecordError)) throw e;
    return { state: { app }, ...base, history: {}, refused: e };
  }
  const parts: TargetPart[] = moving.map((m, i) => ({
    entry: m.entry,
    proposal: signals[i] ? withGateReport(m.proposal!, signals[i]) : m.proposal!,
  }));
  const combined = combineSignals(moving.map((m, i) => ({ app: m.app, signals: signals[i] })));
  const failing = moving.filter((_, i) => gateFailure(signals[i]) !== undefined);
  const abort = failing.length > 0 || heldBefore(own) ? waveAbort(s, live, failing) : undefined;
  const landed = moving.flatMap((m) => (m.history.landedAt ? [m.history.landedAt.getTime()] : []));
  const since = moving.flatMap((m) => (m.history.landedAt ?? m.history.pullsSince)?.getTime() ?? []);
  return {
    state: { app, proposal: waveProposal(at, parts, s.config.pr.labels), ...(combined ? { signals: combined } : {}) },
    ...base,
    history: landed.length === moving.length && landed.length > 0 ? { landedAt: new Date(Math.max(...landed)) } : {},
    ...(abort ? { abort } : {}),
    ...(since.length > 0 ? { pendingSince: new Date(Math.min(...since)) } : {}),
  };
}

function heldBefore(pulls: readonly RollgenPull[]): boolean {
  const abort = newestAbort(pulls);
  return abort !== undefined && closedByPerson(abort);
}

/**
 * One abort PR for the wave: the failing targets only (`onFailure: target`), or every target of the
 * wave with a canary live (`onFailure: wave`). Undefined when none has a canary to abort.
 */
function waveAbort(s: FlowSession, live: LiveWave, failing: readonly Member[]): Proposal | undefined {
  const wave = live.at.wave;
  const wholeWave = live.members.filter((m) => wave.targets.includes(m.app));
  const chosen = wave.onFailure === 'wave' ? wholeWave : failing.length > 0 ? failing : live.moving;
  const parts = chosen.flatMap((m) => {
    const proposal = abortProposal(s, m.entry);
    return proposal ? [{ entry: m.entry, proposal }] : [];
  });
  return parts.length > 0 ? waveProposal(live.at, parts, s.config.pr.labels) : undefined;
}

/**
 * A person's own PR on a target of the wave (`abort|retry|promote --pr`), or on the whole wave
 * (`abort|promote|retry --wave W --pr`), holds the wave until merged or closed. The abort PR rollgen opened
 * for a failure is no person's: the failure path decides it.
 */
function personsPull(wave: WaveConfig, pulls: ReadonlyMap<string, readonly RollgenPull[]>): string | undefined {
  const open = [...wave.targets, waveApp(wave.name)].flatMap((t) =>
    (pulls.get(t) ?? []).filter((x) => x.pr.state === 'open' && x.marker?.origin === 'command' && !x.marker.failure),
  );
  if (open.length === 0) return undefined;
  const named = open
    .map((x) => `${x.pr.ref} (${x.marker!.target} of ${waveOf(x.app) ? `wave ${waveOf(x.app)}` : x.app})`)
    .join(', ');
  return `wave ${wave.name} waits for a person to merge or close ${named}`;
}

/** A target starting its canary with a pod template the earlier waves never ran holds the wave (fleet-step.ts). */
function pinHold(s: FlowSession, live: LiveWave): string | undefined {
  const ran = new Map(live.members.map((m) => [m.app, m.rollouts.map((r) => r.stableRevision)] as const));
  const starting = live.moving
    .filter((m) => !m.progressing && (m.proposal!.target.kind === 'step' || m.proposal!.target.kind === 'promote'))
    .map((m) => ({ app: m.app, revisions: m.proposal!.marker.revision.split(',') }));
  return pinnedRevisionHold(s.config.waves, live.at.number, ran, starting);
}

/** Nothing of the live wave moves: it failed (a target aborted) and waits for a person. */
function failedHold(live: LiveWave): string | undefined {
  if (live.moving.length > 0) return undefined;
  const failed = live.members.filter((m) => m.aborted && live.at.wave.targets.includes(m.app)).map((m) => m.app);
  return `wave ${live.at.wave.name} failed (${failed.join(', ') || 'a target'} aborted): fix the source, or \`rollgen retry --wave ${live.at.wave.name} --pr\` (one PR for the wave); later waves wait`;
}

/**
 * The bake of the wave before: the live wave's first PR opens only once that long has passed since
 * the last merge touching the previous wave's targets.
 */
function bakeHold(s: FlowSession, live: LiveWave): string | undefined {
  const { wave, number } = live.at;
  const before = s.config.waves[number - 2];
  if (!before || before.bakeSeconds === 0 || live.moving.some((m) => m.progressing)) return undefined;
  const dates = live.members
    .filter((m) => before.targets.includes(m.app))
    .flatMap((m) => m.history.landedAt?.getTime() ?? []);
  if (dates.length === 0) return undefined;
  const due = new Date(Math.max(...dates) + before.bakeSeconds * 1000);
  return s.edges.now() < due
    ? `wave ${wave.name} waits for wave ${before.name} to bake ${before.bakeSeconds}s after its last merge: until ${due.toISOString()}`
    : undefined;
}
