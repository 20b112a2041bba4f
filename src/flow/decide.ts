import { CheckState, PullRequest } from '../scm/types';
import { Target, parseBranch } from './branch';
import { Marker, parseMarker, withoutHead } from './marker';
import { Proposal } from './proposal';
import { GateSignals, countFrom, gateWait, scaleDownWait } from './gate-signals';
import { BASE_LABEL } from './target';
import { waveOf } from './fleet-proposal';

/** A rollgen PR as read back from the code host: its branch names the app and target, its body holds the marker. */
export interface RollgenPull {
  readonly pr: PullRequest;
  readonly app: string;
  readonly target: Target;
  readonly marker?: Marker;
}

/** One app as the base branch has it, and what rollgen would propose for it now. */
export interface AppFlowState {
  readonly app: string;
  /** What `advance` (or a command) would write next; undefined when there is nothing to do. */
  readonly proposal?: Proposal;
  /** `retry --pr` on a held app: open the step's PR again although a person closed it. */
  readonly ignoreHold?: boolean;
  /** Health and analysis of the step the base carries (read at the edge); they gate timed and automatic merges. */
  readonly signals?: GateSignals;
}

/** From git history of the checkout: when the app's current state (its status file) reached the base. */
export interface AppHistory {
  readonly landedAt?: Date;
}

export type Action =
  | { readonly kind: 'open'; readonly proposal: Proposal }
  | {
      readonly kind: 'update';
      readonly pr: PullRequest;
      readonly proposal: Proposal;
      readonly commit: boolean;
      readonly fields: PullFields;
    }
  | { readonly kind: 'merge'; readonly pr: PullRequest }
  /** Merge the PR the actions before it opened or updated (an automatic abort). */
  | { readonly kind: 'merge-opened'; readonly reason: string }
  | {
      readonly kind: 'close';
      readonly pr: PullRequest;
      readonly marker?: Marker;
      readonly why: 'superseded' | 'obsolete';
    }
  | { readonly kind: 'note-hold'; readonly pr: PullRequest; readonly marker: Marker }
  | { readonly kind: 'need-checks'; readonly pr: PullRequest }
  | { readonly kind: 'wait'; readonly pr?: PullRequest; readonly reason: string };

export interface PullFields {
  readonly title?: string;
  readonly body?: string;
  readonly labels?: readonly string[];
}

/** rollgen's PRs from one listPulls scan, grouped by app, newest first; other branches are ignored. */
export function groupPulls(pulls: readonly PullRequest[]): Map<string, RollgenPull[]> {
  const byApp = new Map<string, RollgenPull[]>();
  for (const pr of [...pulls].sort((a, b) => b.number - a.number)) {
    const parsed = parseBranch(pr.branch);
    if (!parsed) continue;
    const marker = parseMarker(pr.body);
    const list = byApp.get(parsed.app) ?? [];
    list.push({ pr, app: parsed.app, target: parsed.target, ...(marker ? { marker } : {}) });
    byApp.set(parsed.app, list);
  }
  return byApp;
}

/**
 * The one right thing for one app, as data: open the next PR, bring it up to date, merge it when
 * its gate has passed and checks are green, or wait; close what a new proposal supersedes; hold
 * after a person closed the step's PR. Checks are asked for (`need-checks`) only when they decide
 * a merge, and passed back in `checks` on a second call. Pure.
 */
export function decide(
  app: AppFlowState,
  pulls: readonly RollgenPull[],
  now: Date,
  history: AppHistory,
  checks: ReadonlyMap<string, CheckState> = new Map(),
): Action[] {
  const p = app.proposal;
  const open = pulls.filter((x) => x.pr.state === 'open');
  const command = open.find((x) => x.marker?.origin === 'command');
  if (command && p?.marker.origin !== 'command')
    return [
      {
        kind: 'wait',
        pr: command.pr,
        reason: `waiting for a person to merge or close ${command.pr.ref} (${command.marker!.target})`,
      },
    ];
  if (!p) {
    const stale = open.filter((x) => x.marker?.origin !== 'command');
    return stale.length > 0 ? stale.map((x) => close(x, 'obsolete')) : [{ kind: 'wait', reason: 'up to date' }];
  }
  const onBranch = pulls.filter((x) => x.pr.branch === p.branch);
  const current = onBranch.find((x) => x.pr.state === 'open');
  const superseded = open.filter((x) => x !== current).map((x) => close(x, 'superseded'));
  if (current) return [...keepCurrent({ x: current, app, now, history, checks }), ...superseded];
  const newest = onBranch[0];
  if (newest && !app.ignoreHold && isRejection(newest, p)) {
    const note: Action[] = newest.marker!.noted ? [] : [{ kind: 'note-hold', pr: newest.pr, marker: newest.marker! }];
    return [
      ...note,
      ...superseded,
      {
        kind: 'wait',
        pr: newest.pr,
        reason: `held: ${newest.pr.ref} was closed without merging; push a new revision, or run rollgen retry|abort ${commandName(app.app)} --pr`,
      },
    ];
  }
  const landed = app.ignoreHold ? undefined : onBranch.find((x) => landedAfterCheckout(x, p, history));
  if (landed)
    return [
      {
        kind: 'wait',
        pr: landed.pr,
        reason: `${landed.pr.ref} was merged after this checkout; the run on the new ${landed.pr.base} takes it from here`,
      },
    ];
  // A step that scales pods down is not even committed while their Service's target group lacks the new pods.
  const unverified = scaleDownWait(app.signals);
  if (unverified) return [...superseded, { kind: 'wait', reason: unverified }];
  return [{ kind: 'open', proposal: p }, ...superseded];
}

/** What decides the open PR of the app's proposal. */
interface Current {
  readonly x: RollgenPull;
  readonly app: AppFlowState;
  readonly now: Date;
  readonly history: AppHistory;
  readonly checks: ReadonlyMap<string, CheckState>;
}

function keepCurrent(c: Current): Action[] {
  const { x, app } = c;
  const p = app.proposal!;
  const fields = changedFields(x.pr, p);
  const commit = x.marker?.digest !== p.marker.digest;
  if (commit) return [{ kind: 'update', pr: x.pr, proposal: p, commit, fields }];
  // A body that only reports new measurements or health does not hold up the gate decision.
  const update: Action[] =
    Object.keys(fields).length > 0 ? [{ kind: 'update', pr: x.pr, proposal: p, commit, fields }] : [];
  return [...update, ...gateOf(c)];
}

function gateOf({ x, app, now, history, checks }: Current): Action[] {
  const gate = app.proposal!.gate;
  if (gate.kind === 'manual') return [{ kind: 'wait', pr: x.pr, reason: `manual gate: a person merges ${x.pr.ref}` }];
  const held = gateWait(app.signals, app.app, x.pr.ref);
  if (held) return [{ kind: 'wait', pr: x.pr, reason: held }];
  if (gate.kind === 'timed') {
    const from = countFrom(history.landedAt, app.signals);
    if (!from)
      return [
        {
          kind: 'wait',
          pr: x.pr,
          reason: 'timed gate: the previous step is not in the git history of this checkout (fetch-depth: 0?)',
        },
      ];
    const due = new Date(from.getTime() + gate.seconds * 1000);
    if (now < due)
      return [{ kind: 'wait', pr: x.pr, reason: `timed gate: ${x.pr.ref} may merge from ${due.toISOString()}` }];
  }
  // Someone pushed to the step branch: rollgen reviewed none of it, so only a person may merge it.
  if (x.marker?.head !== x.pr.headSha)
    return [
      {
        kind: 'wait',
        pr: x.pr,
        reason: `${x.pr.ref} has commits rollgen did not make; a person reviews and merges it`,
      },
    ];
  const state = checks.get(x.pr.headSha);
  if (state === undefined) return [{ kind: 'need-checks', pr: x.pr }];
  if (state !== 'success')
    return [
      {
        kind: 'wait',
        pr: x.pr,
        reason: `gate passed; checks on ${x.pr.ref} are ${state === 'pending' ? 'pending' : 'failing'}`,
      },
    ];
  return [{ kind: 'merge', pr: x.pr }];
}

/**
 * Title, body and labels that differ from the proposal. Labels a person added stay; only rollgen's
 * own (`rollgen`, `rollgen:*`) are made to match.
 */
export function changedFields(pr: PullRequest, p: Proposal): PullFields {
  const own = (l: string) => l === BASE_LABEL || l.startsWith(`${BASE_LABEL}:`);
  const labels = [...new Set([...pr.labels.filter((l) => !own(l)), ...p.labels])].sort();
  const same = labels.length === pr.labels.length && labels.every((l) => pr.labels.includes(l));
  return {
    ...(pr.title !== p.title ? { title: p.title } : {}),
    ...(withoutHead(pr.body.replace(/\r\n/g, '\n')) !== p.body ? { body: p.body } : {}),
    ...(same ? {} : { labels }),
  };
}

function sameProposal(m: Marker | undefined, p: Proposal): boolean {
  return (
    m !== undefined && m.target === p.marker.target && m.revision === p.marker.revision && m.stable === p.marker.stable
  );
}

/** A person closed this very proposal unmerged (not rollgen superseding it): the app holds. */
function isRejection(x: RollgenPull, p: Proposal): boolean {
  return x.pr.state === 'closed' && !x.pr.merged && x.marker?.closedBy !== 'rollgen' && sameProposal(x.marker, p);
}

/** The same proposal merged after the app's state in this checkout landed: the checkout is behind the base. */
function landedAfterCheckout(x: RollgenPull, p: Proposal, history: AppHistory): boolean {
  if (!x.pr.merged || !x.pr.mergedAt || !sameProposal(x.marker, p)) return false;
  return history.landedAt === undefined || new Date(x.pr.mergedAt) > history.landedAt;
}

/** How a person names the app in a command: a wave's PRs are filed under `wave:W`, named `--wave W`. */
const commandName = (app: string): string => (waveOf(app) !== undefined ? `--wave ${waveOf(app)}` : app);

function close(x: RollgenPull, why: 'superseded' | 'obsolete'): Action {
  return { kind: 'close', pr: x.pr, why, ...(x.marker ? { marker: x.marker } : {}) };
}
