import * as fs from 'fs';
import * as path from 'path';
import type { SimRequest, TrafficGenerator } from '../../src/contract/generator';
import { KubeObject } from '../../src/model/kube';
import { ResourceSet } from '../../src/model/resource-set';
import { defaultGatePolicy } from '../../src/plan/gates';
import type { PlannedStep } from '../../src/model/plan';
import { RenderPhase } from '../../src/render/phase';
import { renderApp } from '../../src/render/render-app';
import { defaultTrackLabel } from '../../src/model/track';
import { AppLocation, loadSource, readSourceFiles } from '../../src/app/inputs';
import { PodShare, simulateRequest, TrafficSplit } from '../../src/simulate/simulate';
import type { LoadedApp, LoadedRollout } from '../../src/spec/loaded-app';
import { statesAtStep } from '../../src/state/render-states';

const GOLDEN = path.join(__dirname, '..', 'golden');

/** The golden case names of a provider (test/golden/<provider>), without the error-* cases. */
export const goldenCases = (provider: string): string[] =>
  fs.readdirSync(path.join(GOLDEN, provider)).filter((c) => !c.startsWith('error-'));

/** Loads the app in `source` as rollgen does (default gates and track), file names relative to `root`. */
export function loadAppFrom(name: string, source: string, root: string): LoadedApp {
  const loc: AppLocation = { name, source, gates: defaultGatePolicy, track: defaultTrackLabel };
  return loadSource(loc, readSourceFiles(loc, root), root);
}

/** Loads test/golden/<provider>/<name>/source as the app `name`. */
export const loadGoldenApp = (provider: string, name: string): LoadedApp =>
  loadAppFrom(name, path.join(GOLDEN, provider, name, 'source'), path.join(GOLDEN, provider));

/** Objects with every rollout in `phase` (or the phase picked per rollout); canary templates differ so the canary is a real new version. */
export function objectsAt(app: LoadedApp, phase: RenderPhase | ((r: LoadedRollout) => RenderPhase)): KubeObject[] {
  const phaseOf = typeof phase === 'function' ? phase : () => phase;
  const states = statesAtStep(app, { resources: new ResourceSet([]) }, 0, defaultTrackLabel).map((s) => ({
    ...s,
    phase: phaseOf(s.rollout),
    canaryPod: { ...s.canaryPod, revision: 'new' },
  }));
  return renderApp(app, states, defaultTrackLabel);
}

/** The distinct traffic generators of the app's rollouts, in order (the simulator asks the first that matches). */
export const generatorsOf = (app: LoadedApp): TrafficGenerator[] => [
  ...new Set(app.rollouts.flatMap((r) => r.providers.map((p) => p.generator))),
];

/** Pods that get a share of the request with no ready Deployment behind them: the request would fail. */
export const deadPods = (split: TrafficSplit | undefined): PodShare[] =>
  split?.pods.filter((p) => p.share > 0 && !p.deployment) ?? [];

/** Share of a request that lands on pods of a `*-canary` Deployment; throws when no route matches. */
export function canaryShare(
  objects: readonly KubeObject[],
  generators: readonly TrafficGenerator[],
  req: SimRequest,
): number {
  const split = simulateRequest(objects, generators, req);
  if (!split) throw new Error(`no route matched ${JSON.stringify(req)}`);
  return split.pods.filter((p) => p.deployment?.endsWith('-canary')).reduce((n, p) => n + p.share, 0);
}

/** The share of plain requests a step sends to canary pods: its weight, or by replica count when a shared Service carries no weight. */
export const plannedCanaryShare = (step: PlannedStep): number =>
  step.serviceSelection === 'shared' && step.traffic.weight === 0
    ? step.canaryReplicas / (step.canaryReplicas + step.stableReplicas)
    : step.traffic.weight / step.traffic.weightTotal;
