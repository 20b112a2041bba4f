import { Diagnostic } from '../diagnostics';
import type { WaveConfig } from '../io/config-waves';
import type { LoadedEntry } from './load-repo';

/** One wave as `plan` shows it (docs/fleet.md): its targets, the steps each runs, and what gates the next wave. */
export interface WavePlan {
  readonly wave: number;
  readonly name: string;
  /** `app/target` of each target. */
  readonly targets: readonly string[];
  /** The rollout steps each target runs here (empty: straight promotion). */
  readonly steps: readonly number[];
  readonly promoteOnly: boolean;
  /** Targets moving together. */
  readonly parallel: number;
  readonly bakeSeconds: number;
  readonly onFailure: 'target' | 'wave';
}

/**
 * The waves that hold any of `apps`, in order; a `steps:` number some target's rollout lacks is a
 * problem at its line (every one reported).
 */
export function planWaves(
  waves: readonly WaveConfig[],
  apps: readonly LoadedEntry[],
): { plans: WavePlan[]; problems: Diagnostic[] } {
  const byName = new Map(apps.map((a) => [a.app.name, a] as const));
  const problems: Diagnostic[] = [];
  const plans = waves.flatMap((w, i): WavePlan[] => {
    const loaded = w.targets.flatMap((t) => (byName.has(t) ? [byName.get(t)!] : []));
    if (loaded.length === 0) return [];
    const counts = loaded.flatMap((a) => a.app.rollouts.map((r) => r.plan.steps.length));
    const most = Math.max(0, ...counts);
    if (Array.isArray(w.steps))
      for (const a of loaded)
        for (const r of a.app.rollouts) {
          const missing = w.steps.filter((n) => n > r.plan.steps.length);
          if (missing.length > 0)
            problems.push({
              ...w.stepsAt,
              severity: 'error',
              message: `wave ${w.name} runs step ${missing.join(', ')}, but app ${a.app.name}'s rollout ${r.spec.name} has ${r.plan.steps.length} steps; list steps it has`,
            });
        }
    return [
      {
        wave: i + 1,
        name: w.name,
        targets: loaded.map((a) => (a.loc.target ? `${a.loc.target.app}/${a.loc.target.name}` : a.app.name)),
        steps: w.steps === 'promote' ? [] : w.steps === 'all' ? range(most) : [...w.steps],
        promoteOnly: w.steps === 'promote',
        parallel: Math.min(w.parallel ?? loaded.length, loaded.length),
        bakeSeconds: w.bakeSeconds,
        onFailure: w.onFailure,
      },
    ];
  });
  return { plans, problems };
}

/** The waves as text for `plan`, after the apps' own tables. */
export function formatWaves(plans: readonly WavePlan[]): string {
  if (plans.length === 0) return '';
  const lines = ['WAVES (one commit per wave step, touching every moving target of the wave)'];
  for (const [i, p] of plans.entries()) {
    lines.push(`wave ${p.wave} ${p.name}: ${p.targets.join(', ')}`);
    const steps = p.promoteOnly
      ? 'promote at once (the revision passed the earlier waves)'
      : `steps ${p.steps.join(', ')}, each behind its own gate, then promote and clean-up`;
    const together = p.parallel === p.targets.length ? 'all targets together' : `${p.parallel} target(s) at a time`;
    lines.push(`  ${steps}; ${together}`);
    lines.push(
      `  on failure: ${p.onFailure === 'wave' ? 'the whole wave aborts' : 'the failing target aborts'}; later waves never start`,
    );
    const bake = p.bakeSeconds > 0 ? `, then a bake of ${duration(p.bakeSeconds)}` : '';
    const done = i === plans.length - 1 ? 'done when' : 'next wave when';
    lines.push(`  ${done}: every target promoted, healthy and its analyses Successful${bake}`);
  }
  return lines.join('\n') + '\n';
}

const duration = (s: number): string => (s % 3600 === 0 ? `${s / 3600}h` : s % 60 === 0 ? `${s / 60}m` : `${s}s`);

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);
