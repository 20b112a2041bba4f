import { AnalysisRecordError, ScmError } from '../errors';
import { withWholeFleet } from '../app/fleet-step';
import { RunContext } from '../app/context';
import { holdNotes } from '../state/app-state';
import { OnFailure } from '../io/config';
import { CheckState } from '../scm/types';
import { BRANCH_PREFIX } from './branch';
import { readConnection, withoutToken } from './connection';
import { flowEdges } from './edges';
import { Action, AppFlowState, AppHistory, RollgenPull, decide, groupPulls } from './decide';
import { execute } from './execute';
import { BaseHistory, readAppHistories } from './history';
import { abortProposal, readSignals, withGateReport } from './gate-edge';
import { recentCommits } from './read-gates';
import { GateSignals, gateFailure, scaleDownWait } from './gate-signals';
import { readVerify } from './read-verify';
import type { LoadedEntry } from '../app/load-repo';
import { decideOnFailure } from './on-failure';
import { closedByPerson, newestAbort } from './abort-hold';
import { previewOffline } from './offline';
import { Proposal } from './proposal';
import { FlowOptions, FlowSession, executeOptions, openSession, proposalsFor } from './session';
import { sayDeferred, writeWithinBudget } from './budgeted-writes';
import { refuseUnreportedJobs } from './job-health';
import { FleetPrep, offlineFleet, prepareFleet } from './fleet-pr';

/** One app's error that holds that app alone; the run goes on with the others. */
type AppFailure = ScmError | AnalysisRecordError;

const isAppFailure = (e: unknown): e is AppFailure => e instanceof ScmError || e instanceof AnalysisRecordError;

export interface AppRound {
  readonly state: AppFlowState;
  readonly pulls: readonly RollgenPull[];
  readonly history: AppHistory;
  /** The abort PR, when the step failed and a canary is live to abort. */
  readonly abort?: Proposal;
  /** Why the abort PR, which scales pods down, may not merge yet (verify.aws.targetGroupIPs). */
  readonly abortWait?: string;
  readonly onFailure: OnFailure;
  /**
   * The code host refused a read of the app's health or analysis, or the app's analysis record does
   * not read back: the app is skipped this run (nothing opens, merges or aborts for it).
   */
  readonly refused?: AppFailure;
  /** Since when the app waits (its state's landing, or its source's first commit): the oldest goes first. */
  readonly pendingSince?: Date;
  /** Why nothing may move for it this run (a fleet wave's bake, a person's PR on one of its targets). */
  readonly hold?: string;
}

function decideRound(r: AppRound, now: Date, checks?: ReadonlyMap<string, CheckState>): Action[] {
  if (r.refused) return [];
  if (r.hold) return [{ kind: 'wait', reason: r.hold }];
  return (
    decideOnFailure(r.state, r.abort, r.onFailure, r.pulls, now, r.history.landedAt, r.abortWait) ??
    decide(r.state, r.pulls, now, r.history, checks)
  );
}

/**
 * `rollgen pr`: per app of rollgen.yaml, the one right thing (see decide.ts), through one listPulls
 * scan for all apps. With --dry-run every intended action is printed and nothing is written.
 */
export async function prCommand(ctx: RunContext, args: readonly string[], opts: FlowOptions): Promise<void> {
  ({ args, opts } = withWholeFleet(ctx, args, opts));
  if (opts.offline)
    return previewOffline(ctx, args, opts, (s, entries) =>
      offlineFleet(s, entries, proposalsFor(s, entries, { kind: 'advance' }, 'flow')),
    );
  await withoutToken(readConnection(flowEdges(ctx).env, opts).token, async () => {
    const s = await openSession(ctx, args, opts);
    refuseUnreportedJobs(s.apps);
    for (const { app } of s.apps) for (const note of holdNotes(app)) ctx.stdout(`${note}\n`);
    const fleet = prepareFleet(s, opts.dryRun === true);
    const rounds = await gather(s, fleet, opts.dryRun === true);
    const now = s.edges.now();
    const first = rounds.map((r) => decideRound(r, now));
    const checks = await fetchChecks(s, first);
    const actions = rounds.map((r, i) => (checks.size > 0 ? decideRound(r, now, checks) : first[i]));
    const dryRun = opts.dryRun === true;
    const run = await writeWithinBudget(s, rounds, actions, dryRun);
    const failed: { app: string; error: AppFailure }[] = [];
    const deferred = [...run.deferred];
    let limited = false;
    for (const i of run.taken) {
      const r = rounds[i];
      // Once GitHub's rate limit holds after the bounded waits, no further app starts: they wait for the next run.
      if (limited && actions[i].length > 0) {
        deferred.push(i);
        continue;
      }
      // One app's error (the code host refusing its request, an unreadable record) must not starve the others.
      try {
        if (r.refused) throw r.refused;
        await execute(s.scm, r.state.app, actions[i], { ...executeOptions(s, dryRun), written: run.written });
      } catch (e) {
        if (!isAppFailure(e)) throw e;
        ctx.stderr(`${r.state.app}: ${e.message}\n`);
        if (e instanceof ScmError && e.outcome === 'rate-limited') {
          limited = true;
          deferred.push(i);
        } else failed.push({ app: r.state.app, error: e });
      }
    }
    fleet.summarize(rounds, actions);
    const waiting = run.order.filter((i) => deferred.includes(i)).map((i) => rounds[i].state.app);
    if (waiting.length > 0) sayDeferred(s, waiting, dryRun);
    if (failed.length > 0) throw appsFailed(failed);
  });
}

/** The run's error once every app was handled: which apps failed (each printed above), and why. */
function appsFailed(failed: readonly { app: string; error: AppFailure }[]): Error {
  const names = (scm: boolean) => failed.filter((f) => f.error instanceof ScmError === scm).map((f) => f.app);
  const refused = names(true);
  const held = names(false);
  const why = [
    ...(refused.length > 0 ? [`the code host refused requests for ${refused.join(', ')} (above)`] : []),
    ...(held.length > 0 ? [`rollgen holds ${held.join(', ')}: an analysis record does not read back (above)`] : []),
  ].join('; ');
  return refused.length > 0
    ? new ScmError(`rollgen pr`, undefined, `${why}; the other apps are done`)
    : new AnalysisRecordError(`rollgen pr: ${why}; the other apps are done`);
}

async function gather(all: FlowSession, fleet: FleetPrep, dryRun: boolean): Promise<AppRound[]> {
  // Targets in waves move as the fleet (fleet-pr.ts); the other apps one by one, as below.
  const s = { ...all, apps: fleet.free };
  // Proposals first: an app with an error stops the run before any request is made.
  const proposals = proposalsFor(s, s.apps, { kind: 'advance' }, 'flow');
  const histories = readAppHistories(
    s.edges.git,
    s.checkout.root,
    s.apps.map((entry) => ({ source: entry.loc.source, output: entry.loc.output! })),
    s.checkout.shallow,
  );
  const pending = [...proposals.map((p, i) => (p ? histories[i] : undefined)), ...fleet.pending];
  const pulls = groupPulls(await s.scm.listPulls(scanScope(pending)));
  const recent = recentCommits(s.edges.git, s.checkout.root);
  const rounds: AppRound[] = [];
  for (const [i, entry] of s.apps.entries()) {
    const at = histories[i].landedAt;
    let signals: GateSignals | undefined;
    try {
      signals = proposals[i] ? await readSignals(s, entry, histories[i], recent, dryRun, proposals[i]) : undefined;
    } catch (e) {
      if (!isAppFailure(e)) throw e;
      rounds.push({ state: { app: entry.app.name }, pulls: [], history: {}, onFailure: 'abort', refused: e });
      continue;
    }
    const proposal = proposals[i] && signals ? withGateReport(proposals[i], signals) : proposals[i];
    const appPulls = pulls.get(entry.app.name) ?? [];
    // A failed step, or one a person held by closing its abort PR (abort-hold.ts), may be aborted.
    const abort = gateFailure(signals) || heldBefore(appPulls) ? abortProposal(s, entry) : undefined;
    const abortWait = abort ? await abortScaleDownWait(s, entry, abort) : undefined;
    rounds.push({
      state: { app: entry.app.name, ...(proposal ? { proposal } : {}), ...(signals ? { signals } : {}) },
      pulls: appPulls,
      history: at ? { landedAt: at } : {},
      ...(abort ? { abort } : {}),
      ...(abortWait ? { abortWait } : {}),
      onFailure: entry.loc.onFailure ?? 'abort',
      ...(pendingSince(histories[i]) ? { pendingSince: pendingSince(histories[i]) } : {}),
    });
  }
  return [...rounds, ...(await fleet.rounds(pulls, recent))];
}

/** An abort that removes pods waits, as a step does, for the serving target groups to hold their pods. */
async function abortScaleDownWait(s: FlowSession, entry: LoadedEntry, abort: Proposal): Promise<string | undefined> {
  if (!entry.loc.verify?.aws?.targetGroupIPs) return undefined;
  const next = { changes: abort.changes, repoRoot: s.checkout.root };
  const verify = await readVerify({ entry, cwd: s.ctx.cwd, env: s.edges.env, live: false, next });
  return scaleDownWait(verify ? { verify } : undefined);
}

const pendingSince = (h: BaseHistory): Date | undefined => h.landedAt ?? h.pullsSince;

function heldBefore(pulls: readonly RollgenPull[]): boolean {
  const abort = newestAbort(pulls);
  return abort !== undefined && closedByPerson(abort);
}

/** Margin for clock skew between the checkout's commit dates and GitHub's timestamps. */
const SKEW_MS = 60 * 60 * 1000;

/**
 * Which PRs one scan must read. Open ones always. Closed ones only matter to apps with something
 * to propose (a hold, or a merge the checkout has not seen yet), and only since that app's state
 * landed, or, for an app that never landed, since its source first appeared: no PR for it is older.
 * So idle apps and old history cost no requests. Without either date (a shallow clone), all of them.
 */
export function scanScope(pending: readonly (BaseHistory | undefined)[]): {
  prefix: string;
  state: 'open' | 'all';
  closedSince?: Date;
} {
  const active = pending.filter((p): p is BaseHistory => p !== undefined);
  if (active.length === 0) return { prefix: BRANCH_PREFIX, state: 'open' };
  if (active.some((p) => !p.pullsSince)) return { prefix: BRANCH_PREFIX, state: 'all' };
  const oldest = Math.min(...active.map((p) => p.pullsSince!.getTime()));
  return { prefix: BRANCH_PREFIX, state: 'all', closedSince: new Date(oldest - SKEW_MS) };
}

/** Checks only for PRs whose gate has passed: the one request a merge decision needs. */
async function fetchChecks(s: FlowSession, decisions: readonly Action[][]): Promise<Map<string, CheckState>> {
  const out = new Map<string, CheckState>();
  for (const a of decisions.flat()) {
    if (a.kind === 'need-checks' && !out.has(a.pr.headSha)) out.set(a.pr.headSha, await s.scm.checks(a.pr.headSha));
  }
  return out;
}
