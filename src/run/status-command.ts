import { CommonOptions, RunContext } from '../app/context';
import { loadApps } from '../app/load-repo';
import { readAppOutput } from '../app/output-state';
import { describeDrift, detectDrift } from '../app/drift';
import { sourcePod } from '../state/app-state';

/** Where each rollout stands, read from its output's status file. */
export async function statusCommand(
  ctx: RunContext,
  args: readonly string[],
  opts: CommonOptions & { json?: boolean },
): Promise<void> {
  const apps = await loadApps(ctx, args, opts);
  const drifts: string[] = [];
  const rows = apps.flatMap(({ loc, app }) => {
    const output = readAppOutput(ctx, loc, app);
    const status = output.status;
    const drift = describeDrift(detectDrift(app, loc, output), loc, ctx.cwd);
    drifts.push(...drift.map((d) => `${app.name}: drift: ${d}`));
    return app.rollouts.map((r) => {
      const s = status?.rollouts.find((x) => x.name === r.spec.name);
      const pending = s && sourcePod(r, loc.track).revision !== (s.canaryRevision ?? s.stableRevision);
      return {
        app: app.name,
        rollout: r.spec.name,
        phase: s?.phase ?? 'NotDeployed',
        step: s?.step ?? 0,
        steps: r.plan.steps.length,
        stable: s?.stableRevision ?? '-',
        canary: s?.canaryRevision ?? '-',
        sourceChanged: Boolean(pending),
        drift,
      };
    });
  });
  if (opts.json) return ctx.stdout(JSON.stringify(rows, null, 2) + '\n');
  for (const r of rows) {
    const changed = r.sourceChanged ? ' (source has a new revision)' : '';
    ctx.stdout(
      `${r.app}/${r.rollout}: ${r.phase} step ${r.step}/${r.steps} stable=${r.stable} canary=${r.canary}${changed}\n`,
    );
  }
  for (const d of drifts) ctx.stdout(`${d}\n`);
}
