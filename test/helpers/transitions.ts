import type { SimRequest, TrafficGenerator } from '../../src/contract/generator';
import type { KubeObject } from '../../src/model/kube';
import type { RenderPhase } from '../../src/render/phase';
import { simulateRequest, TrafficSplit } from '../../src/simulate/simulate';
import { syncMoments } from '../../src/simulate/transition';
import type { LoadedApp } from '../../src/spec/loaded-app';
import { deadPods, generatorsOf, objectsAt } from './golden-app';

export type Transition = readonly [RenderPhase, RenderPhase];

/** Stable → each of `steps` steps → promoting → stable (clean-up), each paired with the next, then an abort from step min(abortFrom, steps) to stable. */
export function lifecycleTransitions(steps: number, abortFrom = 2): Transition[] {
  const phases: RenderPhase[] = [
    { kind: 'stable' },
    ...Array.from({ length: steps }, (_, i) => ({ kind: 'step', step: i + 1 }) as const),
    { kind: 'promoting', step: steps },
    { kind: 'stable' },
  ];
  const pairs: Transition[] = phases.slice(1).map((p, i) => [phases[i], p] as const);
  pairs.push([{ kind: 'step', step: Math.min(abortFrom, steps) }, { kind: 'stable' }]);
  return pairs;
}

/** What counts as a failed request at one moment; by default the pods of `deadPods`. */
export type DeadOf = (
  split: TrafficSplit | undefined,
  req: SimRequest,
  objects: { before: readonly KubeObject[]; after: readonly KubeObject[] },
) => readonly unknown[];

/** Expects no request to reach a backend without ready pods at any sync moment (both prune orders) of any transition, over at least one moment per transition. */
export function expectNoDeadBackends(
  app: LoadedApp,
  transitions: readonly Transition[],
  requests: readonly SimRequest[],
  generators: readonly TrafficGenerator[] = generatorsOf(app),
  deadOf: DeadOf = (split) => deadPods(split),
): void {
  let checked = 0;
  for (const [from, to] of transitions) {
    const objects = { before: objectsAt(app, from), after: objectsAt(app, to) };
    for (const moment of syncMoments(objects.before, objects.after)) {
      for (const req of requests) {
        const dead = deadOf(simulateRequest(moment.objects, generators, req, moment.ready), req, objects);
        expect({ moment: moment.label, from, to, dead }).toEqual({ moment: moment.label, from, to, dead: [] });
        checked++;
      }
    }
  }
  expect(checked).toBeGreaterThan(transitions.length);
}
