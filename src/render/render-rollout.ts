import type { BoundProvider, GeneratorContext, PeerRollout } from '../contract/generator';
import { KubeObject, isObject } from '../model/kube';
import { ResourceSet } from '../model/resource-set';
import { Plan, PlannedStep, TrafficState, stableTraffic, withoutExperiments } from '../model/plan';
import { RolloutSpec } from '../model/rollout';
import { withAntiAffinity } from './anti-affinity';
import { ProviderError } from '../errors';
import { phaseLabel, RenderPhase } from './phase';
import { canaryCarriesAll, canarySide, pingPongServices, promotionTraffic, stableSideOf, withSide } from './ping-pong';
import { renderCanaryService, withTrackSelector } from './services';
import { SYNC_WAVE, TrackLabel } from '../model/track';
import { RepoPeers, peerOf } from './repo-peers';
import { PodTemplateInput, renderCanaryDeployment, renderStableDeployment } from './workload';
import type { RolloutAnalysis } from '../analysis/types';
import { renderAnalysisJobs } from './analysis-jobs';
import { renderExperiment } from './experiment';

export interface RolloutRenderInput {
  readonly app: string;
  readonly rollout: RolloutSpec;
  readonly plan: Plan;
  readonly resources: ResourceSet;
  /** The Deployment as written in the source: the desired new version. */
  readonly deployment: KubeObject;
  readonly stablePod: PodTemplateInput;
  readonly canaryPod: PodTemplateInput;
  readonly phase: RenderPhase;
  readonly track: TrackLabel;
  readonly providers: readonly BoundProvider[];
  /** Every rollout of the repo by provider, for repo-wide allocations; absent for a lone directory. */
  readonly peers?: RepoPeers;
  /** Its analyses: their job metrics are Jobs committed with the step they gate. */
  readonly analysis?: RolloutAnalysis;
}

/** Objects one rollout contributes to a state; they replace source objects of the same key. Pure. */
export function renderRollout(input: RolloutRenderInput): KubeObject[] {
  const step = plannedStep(input);
  const pingPong = input.rollout.pingPong !== undefined;
  const services = pingPong
    ? [
        ...pingPongServices(input.rollout, input.resources, input.phase),
        ...(input.rollout.pingPong?.alongside ? renderServices(input, step) : []),
      ]
    : renderServices(input, step);
  const objects = [...renderWorkloads(input, step), ...services];
  const routed = step && input.phase.kind !== 'draining';
  const total = input.rollout.traffic.weightTotal;
  const traffic =
    pingPong && input.phase.kind === 'promoting'
      ? promotionTraffic(total)
      : routed
        ? input.phase.kind === 'step'
          ? step.traffic
          : withoutExperiments(step.traffic)
        : stableTraffic(total);
  const wave = workloadWave(input.deployment);
  const jobs =
    input.phase.kind === 'step'
      ? renderAnalysisJobs({
          rollout: input.rollout.name,
          ...(input.rollout.namespace ? { namespace: input.rollout.namespace } : {}),
          analysis: input.analysis,
          step: input.phase.step,
          revision: input.canaryPod.revision,
          wave,
        })
      : [];
  const experiment =
    input.phase.kind === 'step'
      ? renderExperiment({
          rollout: input.rollout,
          step: input.phase.step,
          deployment: input.deployment,
          stablePod: input.stablePod,
          canaryPod: input.canaryPod,
          ...stableServiceOf(input),
        })
      : [];
  return [...objects, ...experiment, ...renderRouteObjects(input, traffic, wave, phaseLabel(input.phase)), ...jobs];
}

function stableServiceOf(input: RolloutRenderInput): { stableService?: KubeObject } {
  const name = input.rollout.traffic.stableService;
  const found = name ? input.resources.find('Service', name, input.rollout.namespace)?.object : undefined;
  return found ? { stableService: found } : {};
}

function plannedStep(input: RolloutRenderInput): PlannedStep | undefined {
  const p = input.phase;
  return p.kind === 'step' || p.kind === 'promoting' || p.kind === 'draining'
    ? input.plan.steps[p.step - 1]
    : undefined;
}

function renderWorkloads(input: RolloutRenderInput, step: PlannedStep | undefined): KubeObject[] {
  const { deployment, track, rollout, phase } = input;
  const total = input.plan.replicas;
  const side = stableSideOf(rollout);
  // Ping-pong promotion moves traffic off the stable pods before they change: they take the new version at clean-up.
  const promoting = phase.kind === 'promoting' && !side;
  const stableReplicas = step && phase.kind === 'step' ? step.stableReplicas : total;
  const stablePod = promoting ? input.canaryPod : input.stablePod;
  const stableMeta = side ? withSide(rollout.stablePodMetadata, side) : rollout.stablePodMetadata;
  const out = [renderStableDeployment(deployment, stablePod, stableReplicas, track, stableMeta)];
  if (step) {
    const canary = renderCanaryDeployment(
      deployment,
      input.canaryPod,
      side && canaryCarriesAll(phase) ? total : step.canaryReplicas,
      track,
      side ? withSide(rollout.canaryPodMetadata, canarySide(rollout)) : rollout.canaryPodMetadata,
    );
    out.push(rollout.antiAffinity ? withAntiAffinity(canary, rollout.antiAffinity, track) : canary);
  }
  return out;
}

function renderServices(input: RolloutRenderInput, step: PlannedStep | undefined): KubeObject[] {
  const services = selectingServices(input, step);
  // Blue-green: Services are its routes, so they switch one wave after the Deployments are ready (Argo CD) or in the routes Kustomization (Flux).
  const serviceRoutes = input.rollout.blueGreen && input.rollout.format === 'argo';
  return serviceRoutes ? withRouteWave(services, workloadWave(input.deployment)) : services;
}

function selectingServices(input: RolloutRenderInput, step: PlannedStep | undefined): KubeObject[] {
  const { rollout, resources, track, phase } = input;
  const stableName = rollout.traffic.stableService;
  const stable = stableName ? resources.find('Service', stableName, rollout.namespace)?.object : undefined;
  if (!stable) return [];
  const canaryName = rollout.traffic.canaryService;
  // Without a canary Service of its own the canary is a mesh subset of the stable Service, whose selector must keep both tracks.
  // An Argo basic canary's stableService and canaryService select only their own pods, as Argo's pod-template-hash selector does.
  const argoBasic = rollout.format === 'argo' && rollout.traffic.providers.length === 0;
  const split =
    phase.kind !== 'adopting' &&
    (argoBasic ||
      (rollout.traffic.providers.length > 0 &&
        (!step || phase.kind === 'draining' || step.serviceSelection === 'split'))) &&
    canaryName !== stableName;
  // Blue-green: from the switch on, the active Service selects the new version's pods (until routes go back to stable).
  const switched = step?.switched === true && phase.kind !== 'draining';
  const out = [withTrackSelector(stable, track, split ? (switched ? track.canary : track.stable) : undefined)];
  if (!canaryName || canaryName === stableName) return out;
  if (rollout.traffic.generateCanaryService) {
    if (step) out.push(renderCanaryService(stable, canaryName, track, rollout.canaryPodMetadata.labels));
    return out;
  }
  const userCanary = resources.find('Service', canaryName, rollout.namespace)?.object;
  // A user-written canary Service selects stable pods between rollouts, so it never has zero endpoints; while
  // draining it leaves the canary pods with the routes, before the next commit removes them.
  const canaryLive = step !== undefined && phase.kind !== 'draining';
  if (userCanary)
    out.push(
      withTrackSelector(
        userCanary,
        track,
        phase.kind === 'adopting' ? undefined : canaryLive ? track.canary : track.stable,
      ),
    );
  return out;
}

/**
 * What a generator sees for one rollout; the only place this context is built. Without repo peers
 * (a lone directory, or a peer list that lacks this rollout) it sees only itself.
 */
export function generatorContext(
  app: string,
  rollout: RolloutSpec,
  resources: ResourceSet,
  provider: BoundProvider,
  repo?: RepoPeers,
  track?: TrackLabel,
): GeneratorContext<unknown> {
  const self = peerOf(app, rollout, resources, provider);
  const all = repo?.get(provider.generator.id) ?? [];
  const own = all.find((p) => p.app === app && p.rollout.name === rollout.name);
  // A fleet target allocates with the peers of its own cluster only.
  const listed = own ? clusterPeers(all, own.cluster) : all;
  const peers = own ? listed : [self];
  return { ...self, peers, ...(track ? { track } : {}) };
}

const byClusterCache = new WeakMap<readonly PeerRollout<unknown>[], Map<string | undefined, PeerRollout<unknown>[]>>();

/** The peers in `cluster`, one array per list and cluster, so allocations cached per array stay cached. */
function clusterPeers(
  all: readonly PeerRollout<unknown>[],
  cluster: string | undefined,
): readonly PeerRollout<unknown>[] {
  if (all.every((p) => p.cluster === cluster)) return all;
  let lists = byClusterCache.get(all);
  if (!lists) byClusterCache.set(all, (lists = new Map()));
  let list = lists.get(cluster);
  if (!list) lists.set(cluster, (list = all.filter((p) => p.cluster === cluster)));
  return list;
}

type RouteInput = Pick<RolloutRenderInput, 'app' | 'rollout' | 'resources' | 'providers' | 'peers' | 'track'>;

/**
 * Routing objects of every provider for one traffic state, one sync wave after `wave` (the
 * workloads'). A provider that throws is named with the app, rollout and `state` (e.g. "step 2").
 */
export function renderRouteObjects(
  input: RouteInput,
  traffic: TrafficState,
  wave: number,
  state: string,
): KubeObject[] {
  const routes = input.providers.flatMap((p) => {
    const ctx = generatorContext(input.app, input.rollout, input.resources, p, input.peers, input.track);
    try {
      return p.generator.render(ctx, traffic);
    } catch (e) {
      const site = { app: input.app, rollout: input.rollout.name, state, provider: p.generator.id };
      throw new ProviderError(site, e instanceof Error ? e.message : String(e), { cause: e });
    }
  });
  return withRouteWave(routes, wave);
}

/**
 * Argo CD applies lower waves first and deletes higher waves first: routes one wave after the
 * workloads. A route's own annotation keys are sorted first, for every provider: the layout then
 * never depends on which rollout or step wrote a key first, so step diffs stay small.
 */
function withRouteWave(routes: readonly KubeObject[], wave: number): KubeObject[] {
  return routes.map((r) => ({
    ...r,
    metadata: {
      ...r.metadata,
      annotations: { ...sortedKeys(r.metadata.annotations ?? {}), [SYNC_WAVE]: String(wave + 1) },
    },
  }));
}

const sortedKeys = (map: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(
    Object.keys(map)
      .sort()
      .map((k) => [k, map[k]]),
  );

export function workloadWave(deployment: KubeObject): number {
  const raw = isObject(deployment.metadata.annotations) ? deployment.metadata.annotations[SYNC_WAVE] : undefined;
  const wave = raw === undefined ? 0 : Number.parseInt(raw, 10);
  return Number.isFinite(wave) ? wave : 0;
}
