import { trafficLabel, weightOf } from './traffic-label';
import { describeGate } from './gates';
import { Plan, PlannedStep, TrafficState, stableTraffic, strategyLabel, withoutExperiments } from '../model/plan';
import type { RouteMatch } from '../model/rollout';

/** The human table of `rollgen plan`. */
export function formatPlan(app: string, plan: Plan): string {
  const shared = plan.trafficRouting;
  const providers = [
    ...plan.providers,
    ...(shared?.providers.map((p) => `${p} (TrafficRouting ${shared.name})`) ?? []),
  ];
  const head = `app ${app}, rollout ${plan.rollout} (${plan.format}, ${strategyLabel(plan)}, ${count(plan.replicas, 'replica')}, providers: ${providers.join(', ') || 'none'})`;
  const rows = [
    ['STEP', 'CANARY', 'STABLE', 'TRAFFIC', 'MATCHES', 'MIRROR', 'GATE'],
    ['start', '-', '-', '-', '-', '-', describeGate(plan.startGate)],
    ...plan.steps.map((s) => row(s, plan)),
    ...endRows(plan),
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const lines = rows.map((r) =>
    r
      .map((cell, c) => cell.padEnd(widths[c]))
      .join('  ')
      .trimEnd(),
  );
  const rolling =
    plan.steps.length === 0
      ? ['no steps: a new version goes straight to promotion, one rolling update of the stable Deployment (as Argo)']
      : [];
  const paused = plan.pausedBy ? [`paused by ${plan.pausedBy}: advance proposes nothing until it is false`] : [];
  const pp = plan.pingPong;
  const pingPong = pp
    ? [
        `ping-pong: ${pp.ping} and ${pp.pong} take turns as the stable Service; the canary gets the other one, promote sends it 100% with the canary at full size, clean-up moves the stable pods onto it`,
      ]
    : [];
  const g = plan.removalGates;
  const removal = g
    ? [
        `removal: canary workloads go one commit after routes leave them; that commit waits (after promotion: ${describeGate(g.promotion)}; after an abort: ${describeGate(g.abort)})`,
      ]
    : [];
  return (
    [head, ...lines, ...rolling, ...paused, ...pingPong, ...removal, GATE_LEGEND, ...analysisLines(plan)].join('\n') +
    '\n'
  );
}

const GATE_LEGEND =
  'GATE: what must pass after a row lands before the next one may (manual: a person merges its PR; after Ns: N seconds later; automatic: at once)';

export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * After the last step: promote (the stable workload gets the new version, traffic stays as in the last
 * step) and clean-up (canary workloads and routes removed), which follows promote without a gate.
 */
function endRows(plan: Plan): string[][] {
  const last = plan.steps[plan.steps.length - 1];
  // No steps (Argo's rolling-update form): the start is the promotion, a rolling update of the stable Deployment.
  if (!last)
    return [
      ['promote', '0', String(plan.replicas), '0%', '-', '-', describeGate({ kind: 'automatic' })],
      ['clean-up', '0', String(plan.replicas), '0%', '-', '-', '-'],
    ];
  // After clean-up the stable Service selects stable pods only: 0% to a canary, never "by pods".
  const cleanUp = { ...last, serviceSelection: 'split' as const, traffic: stableTraffic(last.traffic.weightTotal) };
  // Ping-pong promotion: all traffic to the canary's Service, the canary at full size.
  const total = last.traffic.weightTotal;
  const promoted = plan.pingPong
    ? { ...last, canaryReplicas: plan.replicas, traffic: { ...stableTraffic(total), weight: total } }
    : { ...last, traffic: withoutExperiments(last.traffic) };
  return [
    [
      plan.blueGreen ? 'promote (scale down old)' : 'promote',
      String(promoted.canaryReplicas),
      String(plan.replicas),
      trafficLabel(promoted),
      matches(promoted.traffic, promoted.providerMatches),
      mirrors(promoted.traffic),
      describeGate({ kind: 'automatic' }),
    ],
    ['clean-up', '0', String(plan.replicas), trafficLabel(cleanUp), '-', '-', '-'],
  ];
}

function row(s: PlannedStep, plan: Plan): string[] {
  return [
    s.name ? `${s.index} ${s.name}` : String(s.index),
    String(s.canaryReplicas),
    String(s.stableReplicas),
    withShared(plan, trafficLabel(s), plan.trafficRouting ? weightOf(plan.trafficRouting.traffic) : '-'),
    withShared(plan, matches(s.traffic, s.providerMatches), matches(plan.trafficRouting?.traffic)),
    mirrors(s.traffic),
    describeGate(s.gate) +
      (s.analysis?.length ? ` + analysis ${s.analysis.map((a) => a.templates.join('+')).join(', ')}` : ''),
  ];
}

/** Under the table: per gated step, each analysis and the conditions its metrics must meet. */
function analysisLines(plan: Plan): string[] {
  return plan.steps.flatMap((s) =>
    (s.analysis ?? []).flatMap((a) => [
      `step ${s.index} gate: ${a.kind} analysis ${a.templates.join(', ')}`,
      ...a.metrics.map((m) => {
        const when = [
          m.successCondition ? `success: ${m.successCondition}` : '',
          m.failureCondition ? `failure: ${m.failureCondition}` : '',
          m.count !== undefined ? `count ${m.count}` : m.interval !== undefined ? unbounded(a.kind) : '',
          m.interval !== undefined ? `every ${m.interval}s` : '',
          m.failureLimit !== 0 ? `failureLimit ${m.failureLimit}` : '',
          m.dryRun ? 'dry run' : '',
        ].filter((x) => x !== '');
        if (m.provider === 'job')
          return `  ${m.name} (job): a Job committed with the step; passes when the GitOps engine reports it succeeded`;
        return `  ${m.name} (${m.provider}): ${when.join('; ') || 'always passes unless it errors'}`;
      }),
    ]),
  );
}

/** A metric without count: a background analysis stops when the rollout moves on; a step analysis never completes (Argo). */
const unbounded = (kind: string): string =>
  kind === 'background' ? 'until the gate ends' : 'no count: never completes, so this gate never passes';

/** A member of a TrafficRouting: the shared strategy is live at every step; its own routes (if any) come first. */
function withShared(plan: Plan, own: string, shared: string): string {
  if (!plan.trafficRouting) return own;
  const tagged = `${shared} (${plan.trafficRouting.name})`;
  return plan.providers.length === 0 ? tagged : `${own}; ${tagged}`;
}

/** Every way a request reaches the canary: the state's matches and named routes, and `more` (PlannedStep.providerMatches). */
export function matches(t: TrafficState | undefined, more: readonly RouteMatch[] = []): string {
  if (!t) return '-';
  const all = [...t.matches, ...t.headerRoutes.flatMap((r) => r.matches), ...more];
  if (all.length === 0) return '-';
  return all
    .map((m) =>
      [
        ...m.headers.map((h) => `${h.name}${op(h.type)}${h.value}`),
        ...m.cookies.map((c) => `cookie ${c.name}`),
        ...m.queryParams.map((q) => `?${q.name}${op(q.type)}${q.value}`),
        ...(m.path ? [`path ${m.path.value}`] : []),
      ].join(' & '),
    )
    .join(' | ');
}

function op(type: string): string {
  return type === 'Exact' ? '=' : type === 'Prefix' ? '^=' : '~=';
}

function mirrors(t: TrafficState): string {
  return t.mirrorRoutes.length === 0 ? '-' : t.mirrorRoutes.map((m) => `${m.name} ${m.percentage}%`).join(', ');
}
