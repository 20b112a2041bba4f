import type { CheckRun, CommitStatus, ScmClient } from '../scm/types';
import { AnalysisGate, GateSignals } from './gate-signals';
import { Health, combineHealth } from './health';

/**
 * The code host as a wave's targets read it: a commit's statuses and (unnamed) check runs are read
 * once and answer every target (each judges its own contexts, `{target}` filled in), so a wave's
 * health costs one request per commit, not one per target. Named check-run reads (analysis records)
 * and every write go straight through.
 */
export function sharedReads(scm: ScmClient): ScmClient {
  const statuses = new Map<string, Promise<readonly CommitStatus[]>>();
  const runs = new Map<string, Promise<readonly CheckRun[]>>();
  const once = <T>(memo: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> => {
    if (!memo.has(key)) memo.set(key, read());
    return memo.get(key)!;
  };
  return new Proxy(scm, {
    get(target, prop) {
      if (prop === 'commitStatuses') return (sha: string) => once(statuses, sha, () => target.commitStatuses(sha));
      if (prop === 'checkRuns')
        return (sha: string, name?: string) =>
          name === undefined ? once(runs, sha, () => target.checkRuns(sha)) : target.checkRuns(sha, name);
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** One target's signals, named. */
export interface TargetSignals {
  readonly app: string;
  readonly signals?: GateSignals;
}

/**
 * The wave's gate as one: any target failed fails the wave step, any awaited waits, healthy since the
 * last target became healthy; the analyses likewise (failed or errored, then inconclusive, then
 * running). Every reason names its target. Undefined when no target has a signal. Pure.
 */
export function combineSignals(parts: readonly TargetSignals[]): GateSignals | undefined {
  const healths = parts.flatMap((p) => (p.signals?.health ? [named(p.app, p.signals.health)] : []));
  const analyses = parts.flatMap((p) =>
    p.signals?.analysis ? [{ ...p.signals.analysis, reason: `${p.app}: ${p.signals.analysis.reason}` }] : [],
  );
  if (healths.length === 0 && analyses.length === 0) return undefined;
  const analysis = worstAnalysis(analyses);
  return {
    ...(healths.length > 0 ? { health: combineHealth(healths) } : {}),
    ...(analysis ? { analysis } : {}),
  };
}

function named(app: string, h: Health): Health {
  if (h.state === 'failed') return { ...h, reasons: h.reasons.map((r) => `${app}: ${r}`) };
  if (h.state === 'waiting') return { ...h, awaited: h.awaited.map((a) => `${app}: ${a}`) };
  return h;
}

const SEVERITY: readonly AnalysisGate['verdict'][] = ['error', 'failed', 'inconclusive', 'running', 'successful'];

function worstAnalysis(analyses: readonly AnalysisGate[]): AnalysisGate | undefined {
  if (analyses.length === 0) return undefined;
  const rank = (a: AnalysisGate) => SEVERITY.indexOf(a.verdict) + (a.blocking ? 0 : 0.5);
  const worst = [...analyses].sort((a, b) => rank(a) - rank(b))[0];
  const passed = analyses.map((a) => a.passedAt);
  const passedAt = passed.every((d): d is Date => d !== undefined)
    ? passed.reduce((a, b) => (b > a ? b : a))
    : undefined;
  const { passedAt: _own, ...rest } = worst;
  // The wave's count starts when its last target's analyses passed; while any runs, none has.
  return {
    ...rest,
    blocking: worst.blocking || analyses.some((a) => a.blocking && a.verdict === worst.verdict),
    report: analyses.map((a) => a.report).join('\n\n'),
    ...(passedAt ? { passedAt } : {}),
  };
}
