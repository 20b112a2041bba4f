import type { BranchWrite, RequestUsage } from '../scm/types';
import type { Action } from './decide';
import { BudgetedApp, branchWrites, planRun } from './run-budget';
import type { FlowSession } from './session';

export interface BudgetedRun {
  /** Indexes of the apps this run serves, and of those that wait for the next one. */
  readonly taken: readonly number[];
  readonly deferred: readonly number[];
  /** Every app, oldest pending first (what the next run serves first). */
  readonly order: readonly number[];
  /** Every branch the taken apps write, written at once before any PR request: branch → head or why not. */
  readonly written: ReadonlyMap<string, BranchWrite>;
}

interface Round {
  readonly state: { readonly app: string };
  readonly pendingSince?: Date;
}

/**
 * Plans the run within pr.maxRequests (run-budget.ts) and writes every branch of the apps it takes
 * in one operation (one git push). When the push is refused, the client writes by REST from then
 * on: the plan is made again at that cost, so the budget holds either way. A dry run plans only.
 */
export async function writeWithinBudget(
  s: FlowSession,
  rounds: readonly Round[],
  actions: readonly (readonly Action[])[],
  dryRun: boolean,
): Promise<BudgetedRun> {
  const apps: BudgetedApp[] = rounds.map((r, i) => ({
    app: r.state.app,
    actions: actions[i],
    pendingSince: r.pendingSince,
  }));
  const max = s.config.pr.maxRequests;
  const writesOf = (taken: readonly number[]) =>
    taken.flatMap((i) => branchWrites(actions[i], s.checkout.head, s.checkout.tree, s.checkout.base));
  let plan = planRun(apps, s.scm.usage(), max);
  if (dryRun) return { ...plan, written: new Map() };
  let results = await s.scm.writeBranches(writesOf(plan.taken));
  if (results.some((r) => 'error' in r && r.error.outcome === 'push-refused')) {
    plan = planRun(apps, s.scm.usage(), max);
    results = await s.scm.writeBranches(writesOf(plan.taken));
  }
  return { ...plan, written: new Map(results.map((r) => [r.branch, r])) };
}

/** One line in the log, and one row per app in the Action's job summary. */
export function sayDeferred(s: FlowSession, apps: readonly string[], dryRun: boolean): void {
  const why = budgetText(s.scm.usage(), s.config.pr.maxRequests);
  s.ctx.stdout(
    `rollgen: ${apps.length} app(s) ${dryRun ? 'would wait' : 'wait'} for the next run, which takes them first (${why}): ${apps.join(', ')}\n`,
  );
  if (!dryRun) for (const app of apps) s.ctx.deferred?.({ app, reason: why });
}

function budgetText(u: RequestUsage, max: number): string {
  const github =
    u.remaining !== undefined
      ? `; ${u.host ?? 'GitHub'}: ${u.remaining}${u.limit !== undefined ? ` of ${u.limit}` : ''} left${u.reset ? ` until ${u.reset.toISOString()}` : ''}`
      : '';
  return `request budget: ${u.requests} of pr.maxRequests ${max} spent${github}`;
}
