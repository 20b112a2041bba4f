import type { GeneratorContext, PeerRollout } from '../../src/contract/generator';
import type { Origin } from '../../src/diagnostics';
import type { KubeObject } from '../../src/model/kube';
import { ResourceSet } from '../../src/model/resource-set';
import type { TrafficState } from '../../src/model/plan';
import type { RolloutSpec, RouteMatch, ValueMatch } from '../../src/model/rollout';

/** Where the provider options of the test rollout sit. */
export const optionsOrigin: Origin = { file: 'apps/web/rollout.yaml', line: 12, col: 9 };

/** An origin at `line` of `file`, column 1. */
export const lineOf = (file: string, line: number): Origin => ({ file, line, col: 1 });

/** Objects of `file` in namespace shop: object i starts at line i*100+1 and locates any field at line i*100+7. */
export const sourceResources = (file: string, objects: readonly KubeObject[]): ResourceSet =>
  new ResourceSet(
    objects.map((object, i) => ({
      object,
      origin: lineOf(file, i * 100 + 1),
      locate: () => lineOf(file, i * 100 + 7),
    })),
    'shop',
  );

/** A kruise-v1beta1 canary rollout `web` in `shop` of Deployment web with a generated canary Service, at `optionsOrigin`; `traffic` merges into its traffic. */
export const webRollout = (
  spec: Partial<RolloutSpec> = {},
  traffic: Partial<RolloutSpec['traffic']> = {},
): RolloutSpec => ({
  format: 'kruise-v1beta1',
  name: 'web',
  namespace: 'shop',
  origin: optionsOrigin,
  workload: { kind: 'Deployment', name: 'web' },
  style: 'canary',
  steps: [],
  canaryPodMetadata: { labels: {}, annotations: {} },
  stablePodMetadata: { labels: {}, annotations: {} },
  ...spec,
  traffic: { generateCanaryService: true, weightTotal: 100, providers: [], managedRoutes: [], ...traffic },
});

/** The context of a rollout that is the only one bound to its provider: its own sole peer. */
export const soloContext = <O>(self: PeerRollout<O>): GeneratorContext<O> => ({ ...self, peers: [self] });

/** A traffic state, stable-only (weight 0 of 100, no routes) unless overridden. */
export const traffic = (t: Partial<TrafficState> = {}): TrafficState => ({
  weight: 0,
  weightTotal: 100,
  matches: [],
  headerRoutes: [],
  mirrorRoutes: [],
  ...t,
});

/** A header or query condition, Exact unless given. */
export const vm = (name: string, value: string, type: ValueMatch['type'] = 'Exact'): ValueMatch => ({
  name,
  value,
  type,
});

/** A route match with no conditions unless given. */
export const match = (m: Partial<RouteMatch>): RouteMatch => ({ headers: [], queryParams: [], cookies: [], ...m });
