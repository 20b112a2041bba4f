import { Diagnostic, Origin } from '../diagnostics';
import { isObject } from '../model/kube';
import type { TargetConfig } from './config-targets';

type Locate = (p: readonly (string | number)[]) => Origin;

/** What a wave runs on each of its targets: the rollout's own steps, some of them, or a straight promotion. */
export type WaveSteps = 'all' | 'promote' | readonly number[];

/** One ring of rollgen.yaml `waves:` (docs/fleet.md), its targets resolved to app names. */
export interface WaveConfig {
  readonly name: string;
  /** Where the wave is written (its name). */
  readonly at: Origin;
  /** The apps (`<app>-<target>`) it moves, in rollgen.yaml order. */
  readonly targets: readonly string[];
  readonly steps: WaveSteps;
  /** Where `steps:` is written (a step the rollout lacks is refused there once the apps are loaded). */
  readonly stepsAt: Origin;
  /** How many targets move together; undefined: all of the wave. */
  readonly parallel?: number;
  /** Seconds after the wave completes before the next may start. */
  readonly bakeSeconds: number;
  /** A failing target aborts itself only (`target`) or the whole wave. */
  readonly onFailure: 'target' | 'wave';
}

/** A target as the waves see it: its app's name and where the target is written. */
export interface WaveCandidate {
  readonly app: string;
  readonly target: TargetConfig;
  readonly at: Origin;
}

/**
 * The waves of rollgen.yaml, every problem in `out` at its line: a wave selecting no target, a
 * selector entry or label key matching nothing, a target in two waves or in none, a name twice.
 */
export function readWaves(
  written: unknown,
  candidates: readonly WaveCandidate[],
  locate: Locate,
  out: Diagnostic[],
): WaveConfig[] {
  if (!Array.isArray(written)) return [];
  if (candidates.length === 0) {
    out.push(
      error(
        locate(['waves']),
        'waves: select targets, but no app lists targets:; add targets to the apps the waves roll out (docs/fleet.md)',
      ),
    );
    return [];
  }
  const owner = new Map<string, string>();
  const names = new Set<string>();
  const waves = (written as Record<string, unknown>[]).map((w, i): WaveConfig => {
    const at = (field: readonly (string | number)[]) => locate(['waves', i, ...field]);
    const name = String(w.name);
    if (names.has(name)) out.push(error(at(['name']), `wave "${name}" is listed twice; give each wave its own name`));
    names.add(name);
    const picked = selected(isObject(w.select) ? w.select : {}, candidates, at, out);
    if (picked.length === 0) out.push(error(at(['select']), `wave ${name} selects no target; ${known(candidates)}`));
    for (const c of picked) {
      const first = owner.get(c.app);
      if (first !== undefined)
        out.push(
          error(
            at(['select']),
            `target ${label(c)} is selected by wave ${first} and wave ${name}; a target rolls out in one wave, so narrow one selector`,
          ),
        );
      else owner.set(c.app, name);
    }
    return {
      name,
      at: at(['name']),
      targets: picked.map((c) => c.app),
      steps: (w.steps as WaveSteps | undefined) ?? 'all',
      stepsAt: w.steps === undefined ? at(['name']) : at(['steps']),
      ...(typeof w.parallel === 'number' ? { parallel: w.parallel } : {}),
      bakeSeconds: typeof w.bake === 'string' ? seconds(w.bake) : 0,
      onFailure: w.onFailure === 'wave' ? 'wave' : 'target',
    };
  });
  for (const c of candidates)
    if (!owner.has(c.app))
      out.push(
        error(c.at, `target ${label(c)} is in no wave, so it would never roll out; select it in one of the waves`),
      );
  return waves;
}

/** The candidates a selector picks: those matching every `targets` entry list (any entry) and every label. */
function selected(
  select: Record<string, unknown>,
  candidates: readonly WaveCandidate[],
  at: (field: readonly (string | number)[]) => Origin,
  out: Diagnostic[],
): WaveCandidate[] {
  let picked = [...candidates];
  if (Array.isArray(select.targets)) {
    const matchers = select.targets.map((p, k) => {
      const isMatch = targetMatcher(String(p));
      if (!candidates.some(isMatch))
        out.push(error(at(['select', 'targets', k]), `"${String(p)}" matches no target; ${known(candidates)}`));
      return isMatch;
    });
    picked = picked.filter((c) => matchers.some((m) => m(c)));
  }
  if (isObject(select.labels))
    for (const [key, value] of Object.entries(select.labels)) {
      if (!candidates.some((c) => key in c.target.labels))
        out.push(error(at(['select', 'labels', key]), `no target has the label "${key}"; ${knownKeys(candidates)}`));
      picked = picked.filter((c) => c.target.labels[key] === String(value));
    }
  return picked;
}

/** `app/target` (globs allowed), or a bare `target` for that target of every app. */
function targetMatcher(pattern: string): (c: WaveCandidate) => boolean {
  const full = pattern.includes('/') ? pattern : `*/${pattern}`;
  const isMatch = picomatch()(full);
  return (c) => isMatch(label(c));
}

const label = (c: WaveCandidate) => `${c.target.app}/${c.target.name}`;
const known = (cs: readonly WaveCandidate[]) => `targets: ${cs.map(label).join(', ')}`;
const knownKeys = (cs: readonly WaveCandidate[]) =>
  `label keys: ${[...new Set(cs.flatMap((c) => Object.keys(c.target.labels)))].sort().join(', ')}`;

function seconds(bake: string): number {
  const n = Number(bake.slice(0, -1));
  return n * ({ s: 1, m: 60, h: 3600 } as Record<string, number>)[bake.slice(-1)];
}

function picomatch(): typeof import('picomatch') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('picomatch') as typeof import('picomatch');
}

const error = (at: Origin, message: string): Diagnostic => ({ ...at, message, severity: 'error' });
