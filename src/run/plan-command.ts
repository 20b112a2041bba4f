import { formatWaves, planWaves } from '../app/fleet-plan';
import { prConfigProblems } from '../app/pr-config-check';
import { count, formatPlan } from '../plan/format';
import { CommonOptions, RunContext } from '../app/context';
import { loadRepo } from '../app/load-repo';
import { InputError } from '../errors';
import { formatDiagnostic } from '../diagnostics';
import { detectDrift, driftDiagnostics } from '../app/drift';
import { readAppOutput } from '../app/output-state';
import { RepoPeers } from '../render/repo-peers';
import { committedProblems, describeAllocations } from '../app/cross-app';
import { OutputOptions, diagnosticData, isMachineOutput, printDocument, targetData } from '../app/output-format';
import { Diagnostic } from '../diagnostics';

export interface PlanOptions extends CommonOptions, OutputOptions {}

/** Every step of every rollout of the named apps, as a table or JSON. */
export async function planCommand(ctx: RunContext, args: readonly string[], opts: PlanOptions): Promise<void> {
  const { apps, peers, waves: written } = await loadRepo(ctx, args, opts);
  const waves = planWaves(written, apps);
  if (waves.problems.length > 0) throw new InputError(waves.problems);
  if (isMachineOutput(opts)) {
    const data = apps.map(({ loc, app }) => ({
      app: app.name,
      ...targetData(loc),
      rollouts: app.rollouts.map((r) => r.plan),
    }));
    const fleet = waves.plans.length > 0 ? { waves: waves.plans } : {};
    return printDocument(ctx, opts.output, 'Plan', { apps: data, ...fleet, allocations: describeAllocations(peers) });
  }
  ctx.stdout(
    apps
      .flatMap(({ app }) => [
        ...app.rollouts.map((r) => formatPlan(app.name, r.plan)),
        ...(app.disabledRollouts ?? []).map(
          (name) =>
            `app ${app.name}, rollout ${name}: disabled (spec.disabled): its Deployment rolls out as written, a plain rolling update with no canary steps\n`,
        ),
      ])
      .join('\n'),
  );
  if (waves.plans.length > 0) ctx.stdout(`\n${formatWaves(waves.plans)}`);
  printAllocations(ctx, peers);
}

function printAllocations(ctx: RunContext, peers: RepoPeers): void {
  const lines = describeAllocations(peers);
  if (lines.length > 0) ctx.stdout(`\n${lines.join('\n')}\n`);
}

/** Specs, cross-app rules and drift; problems are errors (exit 2), drift and doubtful fields are warnings. */
export async function validateCommand(ctx: RunContext, args: readonly string[], opts: PlanOptions): Promise<void> {
  const { apps, peers, waves } = await loadRepo(ctx, args, opts);
  const committed = committedProblems(peers);
  const pr = prConfigProblems(ctx.cwd, opts.config);
  const steps = planWaves(waves, apps).problems;
  if (committed.length + pr.length + steps.length > 0) throw new InputError([...pr, ...steps, ...committed]);
  const warnings: Diagnostic[] = apps.flatMap(({ app }) => app.diagnostics.filter((d) => d.severity === 'warning'));
  for (const { loc, app, output: read } of apps) {
    const output = readAppOutput(ctx, loc, app, peers, read);
    for (const d of driftDiagnostics(detectDrift(app, loc, output, peers), loc, output, ctx.cwd)) {
      ctx.stderr(formatDiagnostic(d) + '\n');
      warnings.push(d);
    }
  }
  if (isMachineOutput(opts))
    return printDocument(ctx, opts.output, 'Validation', {
      valid: true,
      apps: apps.map(({ app }) => ({ app: app.name, rollouts: app.rollouts.map((r) => r.spec.name) })),
      warnings: warnings.map(diagnosticData),
      allocations: describeAllocations(peers),
    });
  for (const { app } of apps) {
    const disabled = app.disabledRollouts?.length ? `, ${app.disabledRollouts.length} disabled` : '';
    ctx.stdout(`${app.name}: ok (${count(app.rollouts.length, 'rollout')}${disabled})\n`);
  }
  printAllocations(ctx, peers);
}
