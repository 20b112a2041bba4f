import type { CommitRequest, RequestUsage } from '../scm/types';
import type { Action } from './decide';

/**
 * How one `rollgen pr` run stays within its request budget (pr.maxRequests, and what GitHub says is
 * left of its hourly limit). Each app's actions cost a known number of requests; apps are taken
 * whole, oldest pending first, until the next would not fit; the rest wait for the next run.
 * "Oldest pending" is when the app's current state landed on the base (or its source appeared, for
 * a first deploy): a deferred app keeps that date while every app served since lands a newer one,
 * so the next run takes it first. No state is kept anywhere but in git's history.
 */
export interface BudgetedApp {
  readonly app: string;
  readonly actions: readonly Action[];
  /** When the app started waiting; undefined (a shallow clone) sorts first, in rollgen.yaml order. */
  readonly pendingSince: Date | undefined;
}

export interface RunPlan {
  /** Indexes into the apps given, oldest pending first: the order they are served in, and wait in. */
  readonly taken: readonly number[];
  readonly deferred: readonly number[];
  /** Every app, oldest pending first. */
  readonly order: readonly number[];
  /** Requests the taken apps are expected to cost. */
  readonly cost: number;
  /** Requests the plan could spend: the smaller of the budget's rest and GitHub's remaining. */
  readonly allowance: number;
}

/** Requests an app's actions cost with branches at `perBranch` requests each (0 when pushed by git). */
export function actionCost(actions: readonly Action[], perBranch: number): number {
  let n = 0;
  for (const a of actions) {
    if (a.kind === 'open') n += perBranch + 1 + (a.proposal.labels.length > 0 ? 1 : 0);
    else if (a.kind === 'update')
      // A PATCH (or a GET when only labels change), then labels; by REST an existing branch costs one more.
      n += (a.commit ? perBranch + (perBranch > 0 ? 1 : 0) : 0) + 1 + (a.fields.labels ? 1 : 0);
    else if (a.kind === 'merge' || a.kind === 'merge-opened') n += 1;
    else if (a.kind === 'close' || a.kind === 'note-hold') n += 2;
  }
  return n;
}

export function planRun(apps: readonly BudgetedApp[], usage: RequestUsage, maxRequests: number): RunPlan {
  const allowance = Math.max(0, Math.min(maxRequests - usage.requests, usage.remaining ?? Infinity));
  const order = apps
    .map((a, i) => ({ i, at: a.pendingSince?.getTime() ?? -Infinity }))
    .sort((x, y) => x.at - y.at || x.i - y.i);
  const taken: number[] = [];
  const deferred: number[] = [];
  let cost = 0;
  let full = false;
  for (const { i } of order) {
    const c = actionCost(apps[i].actions, usage.requestsPerBranch);
    // Once one app does not fit, no later one starts (it would overtake an older one next run too).
    if (c > 0 && (full || cost + c > allowance)) {
      full = true;
      deferred.push(i);
    } else {
      cost += c;
      taken.push(i);
    }
  }
  return { taken, deferred, order: order.map((o) => o.i), cost, allowance };
}

/** The branch each taken app's actions write, leased to the head the scan saw (none for a new PR). */
export function branchWrites(
  actions: readonly Action[],
  parent: string,
  parentTree?: string,
  base?: string,
): CommitRequest[] {
  const out: CommitRequest[] = [];
  for (const a of actions) {
    if (a.kind !== 'open' && !(a.kind === 'update' && a.commit)) continue;
    out.push({
      branch: a.proposal.branch,
      parent,
      ...(parentTree ? { parentTree } : {}),
      ...(base ? { base } : {}),
      message: a.proposal.message,
      changes: a.proposal.changes,
      expectedHead: a.kind === 'open' ? null : a.pr.headSha,
    });
  }
  return out;
}
