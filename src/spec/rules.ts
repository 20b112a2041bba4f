import { Diagnostic, Origin } from '../diagnostics';
import { TrackLabel } from '../model/track';
import { KubeObject, isObject } from '../model/kube';
import { ResourceSet, SourceObject } from '../model/resource-set';
import { serviceNameProblem } from './object-checks';
import { scaledToZero } from './reader-common';
import { RolloutSpec, StepSpec } from '../model/rollout';
import { checkServiceSelectors, checkStableSelectsPods } from './service-rules';

/** Semantic rules over one normalized rollout: small named checks that each push what they find. */
export function checkRollout(rollout: RolloutSpec, resources: ResourceSet): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (origin: Origin, message: string) =>
    out.push({ ...origin, message: `rollout ${rollout.name}: ${message}`, severity: 'error' });
  const warn = (origin: Origin, message: string) =>
    out.push({ ...origin, message: `rollout ${rollout.name}: ${message}`, severity: 'warning' });
  checkName(rollout, report);
  checkSteps(rollout, report);
  checkWorkload(rollout, resources, report, warn);
  checkServices(rollout, resources, report);
  checkLoadBalancerCopy(rollout, resources, warn);
  checkServiceSelectors(rollout, resources, report);
  checkStableSelectsPods(rollout, resources, warn);
  checkManagedRoutes(rollout, report);
  return out;
}

type Report = (origin: Origin, message: string) => void;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const CANARY = '-canary';

/**
 * Name limits by kind, for the `<name>-canary` objects rollgen adds: a Deployment name is a DNS
 * subdomain (253 characters), a Service name a DNS label (63).
 */
function checkName(r: RolloutSpec, report: Report): void {
  const name = r.workload.name;
  if (!DNS_SUBDOMAIN.test(name) || name.length > 253 - CANARY.length)
    report(
      r.origin,
      `Deployment name "${name}" must be a DNS-1123 subdomain of at most ${253 - CANARY.length} characters so "<name>-canary" stays valid`,
    );
  const service = r.traffic.stableService;
  if (r.traffic.generateCanaryService && service && (!DNS_LABEL.test(service) || service.length > 63 - CANARY.length))
    report(
      r.origin,
      `Service name "${service}" must be a DNS-1123 label of at most ${63 - CANARY.length} characters so the canary Service "<name>-canary" stays valid`,
    );
}

function checkSteps(r: RolloutSpec, report: Report): void {
  // Argo: a canary without steps is a rolling update straight to promotion; Kruise requires steps.
  if (r.steps.length === 0 && r.format !== 'argo')
    report(r.origin, 'has no steps; add at least one step (e.g. traffic: 20%)');
  r.steps.forEach((s, i) => checkStep(r, s, i, report));
  checkNonDecreasing(r, report);
}

function checkStep(r: RolloutSpec, s: StepSpec, i: number, report: Report): void {
  const n = i + 1;
  if (s.weight !== undefined && (s.weight < 0 || s.weight > r.traffic.weightTotal)) {
    report(s.origin, `step ${n}: traffic ${s.weight} is outside 0..${r.traffic.weightTotal}`);
  }
  // Kruise allows traffic 0% in blue-green only (the new version runs without traffic).
  if (r.format !== 'argo' && s.weight === 0 && !r.blueGreen)
    report(
      s.origin,
      `step ${n}: traffic must be greater than 0% (Kruise canary; 0% is for blueGreen), or leave it out`,
    );
  if (s.replicas && 'percent' in s.replicas && (s.replicas.percent <= 0 || s.replicas.percent > 100)) {
    report(s.origin, `step ${n}: replicas ${s.replicas.percent}% must be in (0%, 100%]`);
  }
  if (s.replicas && 'count' in s.replicas && s.replicas.count <= 0 && r.format !== 'argo')
    report(s.origin, `step ${n}: replicas must be greater than 0`);
  if (r.format === 'kruise-v1alpha1' && s.replicas === undefined && s.weight === undefined)
    report(s.origin, `step ${n}: set weight or replicas`);
}

/** Kruise: replicas never decrease between steps of the same kind (count vs count, percent vs percent). */
function checkNonDecreasing(r: RolloutSpec, report: Report): void {
  if (r.format === 'argo') return;
  for (let i = 1; i < r.steps.length; i++) {
    const [a, b] = [r.steps[i - 1].replicas, r.steps[i].replicas];
    if (a && b && 'count' in a && 'count' in b && b.count < a.count)
      report(
        r.steps[i].origin,
        `step ${i + 1}: replicas ${b.count} is less than step ${i}'s ${a.count}; steps must not decrease`,
      );
    if (a && b && 'percent' in a && 'percent' in b && b.percent < a.percent)
      report(
        r.steps[i].origin,
        `step ${i + 1}: replicas ${b.percent}% is less than step ${i}'s ${a.percent}%; steps must not decrease`,
      );
  }
}

function checkWorkload(r: RolloutSpec, resources: ResourceSet, report: Report, warn: Report): void {
  if (r.workload.synthesized) return checkDeploymentShape(r.workload.synthesized, r.origin, report);
  const found = resources.find('Deployment', r.workload.name, r.namespace);
  if (!found && resources.wasRejected('Deployment', r.workload.name, r.namespace)) return;
  if (!found) {
    const elsewhere = resources.namespacesOf('Deployment', r.workload.name);
    const fix = elsewhere.length
      ? `the app has one in namespace ${elsewhere.map((n) => n || '(none)').join(', ')}: give the rollout the same metadata.namespace`
      : 'add it or fix workloadRef.name';
    return report(
      r.workload.origin ?? r.origin,
      `Deployment "${r.workload.name}"${r.namespace ? ` (namespace ${r.namespace})` : ''} is not among the app's manifests; ${fix}`,
    );
  }
  checkDeploymentShape(found.object, found.origin, report);
  checkDeploymentRuns(r, found, report, warn);
  if (resources.find('Deployment', `${r.workload.name}-canary`, r.namespace)) {
    report(
      found.origin,
      `a Deployment named "${r.workload.name}-canary" already exists; rollgen needs that name for the canary`,
    );
  }
}

function checkDeploymentShape(d: KubeObject, origin: Origin, report: Report): void {
  const spec = isObject(d.spec) ? d.spec : {};
  const selector = isObject(spec.selector) ? spec.selector : {};
  if (!isObject(spec.template)) report(origin, `Deployment "${d.metadata.name}" has no spec.template`);
  if (!isObject(selector.matchLabels) || Object.keys(selector.matchLabels).length === 0) {
    report(
      origin,
      `Deployment "${d.metadata.name}" needs spec.selector.matchLabels so the canary selector can extend it`,
    );
  }
}

/**
 * A paused Deployment starts no pods for a new template: its canary copy would take the step's
 * traffic with none, and promotion would never reach the stable pods. A Deployment scaled to zero
 * (its own replicas, when no Argo Rollout sets them) serves no request at any step.
 */
function checkDeploymentRuns(r: RolloutSpec, found: SourceObject, report: Report, warn: Report): void {
  const spec = isObject(found.object.spec) ? found.object.spec : {};
  const name = found.object.metadata.name;
  if (spec.paused === true)
    report(
      found.locate(['spec', 'paused']),
      `Deployment "${name}" has spec.paused: true, so its canary would start no pods while it takes traffic; remove spec.paused (rollgen stages the rollout itself, step by step)`,
    );
  if (r.workload.replicasOverride === undefined && spec.replicas === 0)
    warn(found.locate(['spec', 'replicas']), scaledToZero(`Deployment "${name}" has `));
  // Argo reads the Rollout's replicas, never the Deployment's: unset, they are 1, whatever the Deployment ran.
  const own = spec.replicas === undefined ? 1 : spec.replicas;
  if (r.workload.replicasDefaulted && typeof own === 'number' && own !== 1)
    warn(
      r.workload.origin ?? r.origin,
      `the Rollout has no spec.replicas, so Argo runs its default of 1 replica, not Deployment "${name}"'s ${own}; rollgen renders 1. Set spec.replicas: ${own} on the Rollout to keep them`,
    );
}

/**
 * Traffic routing without the stable Service it routes to. Argo's Istio subset mode needs no
 * Service of its own: DestinationRule subsets split the pods. The providers' checks, which look
 * for that Service in the routing objects, are skipped then, so this cause is the one error.
 */
export function lacksStableService(r: RolloutSpec): boolean {
  const { stableService, providers } = r.traffic;
  const subsetOnly = providers.every((p) => p.provider === 'istio' && p.options.destinationRule !== undefined);
  return providers.length > 0 && !stableService && !subsetOnly;
}

/**
 * A named canary (or preview) Service that is not there: Argo requires the one its Rollout names
 * to exist, so say how to write it, or (canary) that leaving `canaryService` out lets rollgen make it.
 */
function missingCanaryService(r: RolloutSpec, canary: string, stable: string | undefined): string {
  const role = r.blueGreen ? 'preview' : 'canary';
  const missing = `${role} Service "${canary}" is not among the app's manifests`;
  if (r.format !== 'argo' || !stable) return missing;
  const write = `add a Service "${canary}" with the ports and selector of Service "${stable}" (Argo requires the ${role}Service it names to exist; example: README "What gets rendered")`;
  return r.blueGreen
    ? `${missing}; ${write}`
    : `${missing}; ${write}, or leave canaryService out and rollgen makes "${stable}-canary" from "${stable}"`;
}

function checkServices(r: RolloutSpec, resources: ResourceSet, report: Report): void {
  const { stableService, canaryService, generateCanaryService } = r.traffic;
  if (lacksStableService(r))
    report(
      r.traffic.serviceOrigins?.strategy ?? r.origin,
      r.format === 'argo'
        ? 'trafficRouting needs stableService: add it with the name of the Service your routing sends stable traffic to (Argo refuses trafficRouting without it)'
        : 'traffic routing needs a stable Service: add trafficRoutings[].service with the name of the Service your routing sends stable traffic to',
    );
  if (
    stableService &&
    !resources.find('Service', stableService, r.namespace) &&
    !resources.wasRejected('Service', stableService, r.namespace)
  )
    report(r.traffic.serviceOrigins?.stable ?? r.origin, `Service "${stableService}" is not among the app's manifests`);
  if (
    canaryService &&
    canaryService !== stableService &&
    !generateCanaryService &&
    !resources.find('Service', canaryService, r.namespace)
  ) {
    report(r.traffic.serviceOrigins?.canary ?? r.origin, missingCanaryService(r, canaryService, stableService));
  }
  // Beside a stable/canary pair the ping and pong Services are not among those checked above.
  for (const name of r.pingPong?.alongside ? [r.pingPong.ping, r.pingPong.pong] : [])
    if (!resources.find('Service', name, r.namespace))
      report(r.pingPong!.origin, `ping-pong Service "${name}" is not among the app's manifests`);
  const nameProblem = canaryService && generateCanaryService ? serviceNameProblem(canaryService) : undefined;
  if (nameProblem)
    report(r.origin, `the canary Service name "${canaryService}" ${nameProblem}; shorten the stable Service's name`);
  if (canaryService && generateCanaryService && resources.find('Service', canaryService, r.namespace)) {
    report(
      resources.originOf('Service', canaryService),
      `a Service named "${canaryService}" already exists; rollgen generates the canary Service under that name`,
    );
  }
}

/** The generated canary Service of a LoadBalancer stable Service is a NodePort copy (render/services.ts): said at the type. */
function checkLoadBalancerCopy(r: RolloutSpec, resources: ResourceSet, warn: Report): void {
  const { stableService, canaryService, generateCanaryService } = r.traffic;
  if (!generateCanaryService || !stableService || !canaryService) return;
  const stable = resources.find('Service', stableService, r.namespace);
  if (!stable || !isObject(stable.object.spec) || stable.object.spec.type !== 'LoadBalancer') return;
  warn(
    stable.locate(['spec', 'type']),
    `the canary Service "${canaryService}" is rendered as a NodePort copy of this LoadBalancer Service, without its load-balancer fields and annotations: a LoadBalancer copy (as Kruise makes) would give the canary pods a public load balancer of their own, past the routing`,
  );
}

/** Once per route, at the first step that sets it (a route stays set in the steps after it). */
function checkManagedRoutes(r: RolloutSpec, report: Report): void {
  const told = new Set<string>();
  for (const s of r.steps) {
    for (const route of [...s.headerRoutes, ...s.mirrorRoutes]) {
      if (r.traffic.managedRoutes.includes(route.name) || told.has(route.name)) continue;
      told.add(route.name);
      report(s.origin, `route "${route.name}" must be listed in trafficRouting.managedRoutes`);
    }
  }
}

/**
 * rollgen labels every pod with the track label (stable or canary value): a Deployment that selects
 * its pods by that key with another value would no longer match them (the API server refuses it).
 */
export function trackKeyProblems(r: RolloutSpec, resources: ResourceSet, track: TrackLabel): Diagnostic[] {
  const found = resources.find('Deployment', r.workload.name, r.namespace);
  const spec = found && isObject(found.object.spec) ? found.object.spec : {};
  const selector = isObject(spec.selector) && isObject(spec.selector.matchLabels) ? spec.selector.matchLabels : {};
  if (!found || !(track.key in selector) || selector[track.key] === track.stable) return [];
  return [
    {
      ...found.locate(['spec', 'selector', 'matchLabels', track.key]),
      message: `Deployment "${found.object.metadata.name}" selects its pods by ${track.key}, the track label rollgen sets to ${track.stable} or ${track.canary} on them: its selector would no longer match its pods. Choose another trackLabel.key in rollgen.yaml`,
      severity: 'error',
    },
  ];
}
