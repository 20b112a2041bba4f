import type { Health } from './health';
import type { VerifyGate } from './read-verify';

/**
 * What the cluster and the metrics say about the step the base carries, read at the edge and
 * handed to decide(): the health gate (commit statuses / check runs) and the step's analysis.
 * Plain data; every function here is pure.
 */
export interface GateSignals {
  /** Undefined when rollgen.yaml names no health gate for the app. */
  readonly health?: Health;
  /** Undefined when no analysis runs at this step. */
  readonly analysis?: AnalysisGate;
  /** What AWS shows against the committed step (rollgen.yaml `verify.aws`); undefined when off. */
  readonly verify?: VerifyGate;
}

/** The analysis verdict as the flow needs it (from the engine's record). */
export interface AnalysisGate {
  readonly verdict: 'running' | 'successful' | 'failed' | 'inconclusive' | 'error';
  /** One line: which metric, what it measured, against which condition. */
  readonly reason: string;
  /** Markdown: the measurements as a table and a chart per metric, for PR bodies. */
  readonly report: string;
  /** A step analysis gates the step; a background analysis only aborts on failure. */
  readonly blocking: boolean;
  /** When the step analyses ended Successful (their last measurement); undefined while they run or when there are none. */
  readonly passedAt?: Date;
}

/** Why the step failed (health failure, analysis failed or errored), or undefined. */
export function gateFailure(s: GateSignals | undefined): string | undefined {
  const reasons = [
    ...(s?.health?.state === 'failed'
      ? [`the GitOps engine reports the step failed (${s.health.reasons.join('; ')}) on ${s.health.sha.slice(0, 12)}`]
      : []),
    ...(s?.analysis?.verdict === 'failed' ? [`analysis failed: ${s.analysis.reason}`] : []),
    ...(s?.analysis?.verdict === 'error' ? [`analysis errored: ${s.analysis.reason}`] : []),
  ];
  return reasons.length > 0 ? reasons.join('; ') : undefined;
}

/** Why the step's PR may not merge yet although its own gate has passed, or undefined. */
export function gateWait(s: GateSignals | undefined, app: string, pr: string): string | undefined {
  if (s?.analysis?.verdict === 'inconclusive')
    return `analysis inconclusive (${s.analysis.reason}): a person decides: merge ${pr} to go on, or run rollgen abort ${app} --pr`;
  if (s?.health?.state === 'waiting') return `waiting for health: ${s.health.awaited.join(', ')} to report success`;
  if (s?.analysis?.blocking && s.analysis.verdict === 'running') return `waiting for analysis: ${s.analysis.reason}`;
  if (s?.verify?.weights?.state === 'waiting') return `waiting for the ALB weights: ${s.verify.weights.detail}`;
  return scaleDownWait(s);
}

/** Why the next commit, which scales pods down, may not be made yet: the target groups lack pod IPs. */
export function scaleDownWait(s: GateSignals | undefined): string | undefined {
  const ips = s?.verify?.targetGroupIPs;
  return ips?.state === 'waiting'
    ? `waiting for the target group IPs before scaling pods down: ${ips.detail}`
    : undefined;
}

/**
 * When a timed gate starts counting: when the step landed, or later when its health success arrived,
 * or later still when its step analysis passed.
 */
export function countFrom(landedAt: Date | undefined, s: GateSignals | undefined): Date | undefined {
  if (!landedAt) return undefined;
  const later = [s?.health?.state === 'healthy' ? s.health.since : undefined, s?.analysis?.passedAt];
  return later.reduce<Date>((a, b) => (b && b > a ? b : a), landedAt);
}

/** Markdown for the step PR's body: what the gate awaits and the measurements so far. */
export function gateReport(s: GateSignals | undefined): string {
  if (!s || (!s.health && !s.analysis && !s.verify)) return '';
  const lines = ['### Health and analysis of the current step', ''];
  const h = s.health;
  if (h?.state === 'healthy') lines.push(`- Health: reported healthy on ${h.sha.slice(0, 12)}`);
  if (h?.state === 'waiting') lines.push(`- Health: waiting for ${h.awaited.join(', ')}`);
  if (h?.state === 'failed') lines.push(`- Health: **failed**: ${h.reasons.join('; ')}`);
  const v = s.verify;
  if (v?.weights) lines.push(`- ALB weights: **${v.weights.state}**: ${v.weights.detail}`);
  if (v?.targetGroupIPs) lines.push(`- Target group IPs: **${v.targetGroupIPs.state}**: ${v.targetGroupIPs.detail}`);
  if (s.analysis) lines.push(`- Analysis: **${s.analysis.verdict}**: ${s.analysis.reason}`, '', s.analysis.report);
  return lines.join('\n').trimEnd();
}
