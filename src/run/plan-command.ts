import { count, formatPlan } from '../plan/format';
import { CommonOptions, RunContext } from '../app/context';
import { loadRepo } from '../app/load-repo';

export interface PlanOptions extends CommonOptions {
  readonly json?: boolean;
}

/** Every step of every rollout of the named apps, as a table or JSON. */
export async function planCommand(ctx: RunContext, args: readonly string[], opts: PlanOptions): Promise<void> {
  const { apps } = await loadRepo(ctx, args, opts);
  if (opts.json) {
    const data = apps.map(({ app }) => ({ app: app.name, rollouts: app.rollouts.map((r) => r.plan) }));
    ctx.stdout(JSON.stringify(data.length === 1 ? data[0] : data, null, 2) + '\n');
    return;
  }
  ctx.stdout(apps.flatMap(({ app }) => app.rollouts.map((r) => formatPlan(app.name, r.plan))).join('\n'));
}

export async function validateCommand(ctx: RunContext, args: readonly string[], opts: CommonOptions): Promise<void> {
  const { apps } = await loadRepo(ctx, args, opts);
  for (const { app } of apps) ctx.stdout(`${app.name}: ok (${count(app.rollouts.length, 'rollout')})\n`);
}
