import { getGenerator, listGenerators, providerInputs } from '../../generators/registry';
import type { TrafficGenerator } from '../contract/generator';
import { AnalysisOptions, loadAnalysis, withGates } from '../analysis/load';
import { TemplateDoc, readTemplate } from '../analysis/templates';
import { Diagnostic, hasErrors, orderByStage } from '../diagnostics';
import { checkFields, fieldsUnder } from '../spec/field-ledger';
import { rolloutLedger } from '../spec/field-ledgers';
import { TRAFFIC_ROUTING_FIELDS } from '../spec/traffic-routing-fields';
import { KubeObject, objectKey } from '../model/kube';
import { TrackLabel, defaultTrackLabel } from '../model/track';
import { ResourceSet, SourceObject } from '../model/resource-set';
import { missingFeatures } from '../contract/capabilities';
import { GatePolicy, unpausedPolicyWarnings } from '../plan/gates';
import { exposureWarnings } from '../plan/exposure';
import { suggestName } from '../suggest';
import { buildPlan } from '../plan/plan';
import { Plan } from '../model/plan';
import { generatorContext } from '../render/render-rollout';
import type { BoundProvider } from '../contract/generator';
import { RequestColoring, coloringEnvoyFilter } from '../render/request-coloring';
import { replicasOf } from '../render/workload';
import { ParsedDocument, UnparsedObject } from '../yaml/parse';
import { normalizeArgo } from '../spec/argo';
import { classifyDocument } from '../spec/classify';
import { checkObjectHeader } from '../spec/object-checks';
import { checkApiServerRules } from '../spec/api-server-checks';
import { kruiseDisabled, normalizeKruise } from '../spec/kruise';
import {
  checkRouteTemplates,
  readRouteTemplate,
  RouteTemplateInput,
  withRouteTemplates,
} from '../../generators/custom/route-template';
import { bindOptions } from '../spec/provider-options';
import { checkRollout, lacksStableService, trackKeyProblems } from '../spec/rules';
import { serviceWaveWarnings } from '../spec/service-rules';
import { checkOneRolloutPerService } from '../spec/service-owners';
import { autoscalerWarnings } from '../spec/autoscaler-rules';
import { SharedRouting, normalizeTrafficRouting } from '../spec/traffic-routing';
import { RolloutSpec } from '../model/rollout';
import type { LoadedApp, LoadedRollout, LoadedRouting } from '../spec/loaded-app';
import { validateSchema } from '../spec/validate-schema';

/** Source documents -> validated rollouts, plans and manifests. Collects every problem; never throws. Pure. */
export function loadApp(
  name: string,
  documents: readonly ParsedDocument[],
  policy: GatePolicy,
  { unparsed = [], ...analysisOptions }: AnalysisOptions & { readonly unparsed?: readonly UnparsedObject[] } = {},
): LoadedApp {
  const diagnostics: Diagnostic[] = [];
  const disabledRollouts: string[] = [];
  const manifests: SourceObject[] = [];
  const specs: RolloutSpec[] = [];
  const shared: SharedRouting[] = [];
  const templates: RouteTemplateInput[] = [];
  const analysisTemplates: TemplateDoc[] = [];
  // Objects left out for their own errors (a YAML error, a bad header): nothing else says they are missing.
  const rejected = new Set<string>(unparsed.map(objectKey));
  for (const doc of documents) {
    const role = classifyDocument(doc, diagnostics);
    if (!role) continue;
    if (!checkObjectHeader(doc, diagnostics)) {
      if (role.role === 'manifest') rejected.add(objectKey(doc.value as KubeObject));
      continue;
    }
    checkApiServerRules(doc, diagnostics);
    if (role.role === 'manifest')
      manifests.push({ object: doc.value as KubeObject, origin: doc.origin, locate: doc.locate });
    if (role.role === 'ignored')
      diagnostics.push({ ...doc.origin, message: `dropped from the output: ${role.reason}`, severity: 'warning' });
    if (role.role === 'traffic-routing') readTrafficRouting(doc, shared, diagnostics);
    if (role.role === 'request-coloring') readRequestColoring(doc, manifests, diagnostics);
    if (role.role === 'route-template') collectRouteTemplate(doc, templates, diagnostics);
    if (role.role === 'analysis-template') analysisTemplates.push(...[readTemplate(doc, diagnostics) ?? []].flat());
    if (role.role !== 'rollout') continue;
    // Fields rollgen warns about are reported; a refused one (blue-green, a provider it lacks) stops this rollout.
    const ledger = rolloutLedger(role.schema, providerInputs)!;
    const fieldProblems = checkFields(doc, ledger);
    diagnostics.push(...fieldProblems);
    if (hasErrors(fieldProblems)) continue;
    const schemaProblems = validateSchema(role.schema, doc, (parent) => fieldsUnder(ledger, parent));
    diagnostics.push(...schemaProblems);
    if (schemaProblems.length > 0) continue;
    // Kruise spec.disabled: the controller leaves the workload alone, so it rolls out as a plain Deployment.
    if (role.schema !== 'argo-rollout' && kruiseDisabled(doc)) {
      disabledRollouts.push(disabledNote(doc, diagnostics));
      continue;
    }
    const result =
      role.schema === 'argo-rollout' ? normalizeArgo(doc, providerInputs) : normalizeKruise(doc, providerInputs);
    diagnostics.push(...result.diagnostics);
    // A rollout the reader refused (e.g. a CloneSet workload) is not checked further: one clear message, not a cascade.
    if (!hasErrors(result.diagnostics)) specs.push(result.rollout);
  }
  const documentStage = diagnostics.length;
  const resources = new ResourceSet(manifests, undefined, rejected);
  checkDuplicates(manifests, diagnostics);
  checkRouteTemplates(templates, diagnostics);
  const analysed = loadAnalysis(specs, analysisTemplates, analysisOptions, diagnostics);
  const track: TrackLabel = analysisOptions.track ?? defaultTrackLabel;
  for (const spec of specs) diagnostics.push(...trackKeyProblems(spec, resources, track));
  const rollouts = specs
    .map((spec) => loadRollout(name, withRouteTemplates(spec, templates), resources, policy, diagnostics))
    .filter((r): r is LoadedRollout => r !== undefined)
    .map((r) => withGates(r, analysed.get(r.spec.name)));
  checkOneRolloutPerWorkload(specs, diagnostics);
  diagnostics.push(...unpausedPolicyWarnings(specs, policy));
  checkOneRolloutPerService(specs, diagnostics);
  const routings = loadRoutings(name, shared, rollouts, resources, policy, diagnostics);
  const ordered = orderByStage(diagnostics.slice(0, documentStage), diagnostics.slice(documentStage));
  return {
    name,
    rollouts: rollouts.map((r) => withSharedRouting(r, routings)),
    routings,
    resources,
    diagnostics: ordered,
    ...(disabledRollouts.length > 0 ? { disabledRollouts } : {}),
  };
}

/** Says where a disabled rollout is and what rollgen does instead; returns its name. */
function disabledNote(doc: ParsedDocument, out: Diagnostic[]): string {
  const name = String((doc.value as { metadata?: { name?: unknown } }).metadata?.name ?? '');
  out.push({
    ...doc.locate(['spec', 'disabled']),
    message: `rollout ${name} is disabled (spec.disabled: true): its Deployment is written as in the source, a plain rolling update with no canary steps, until disabled is false`,
    severity: 'warning',
  });
  return name;
}

/** A member's plan shows the TrafficRouting it shares: its providers and the strategy live at every step. */
function withSharedRouting(r: LoadedRollout, routings: readonly LoadedRouting[]): LoadedRollout {
  const routing = routings.find((x) => x.members.includes(r.spec.name));
  if (!routing) return r;
  const trafficRouting = {
    name: routing.spec.name,
    providers: routing.plan.providers,
    traffic: routing.plan.steps[0].traffic,
  };
  return { ...r, plan: { ...r.plan, trafficRouting } };
}

/** Every generator that routes the app's traffic: the rollouts' own, then the shared TrafficRoutings'. */
export function appGenerators(app: LoadedApp): TrafficGenerator[] {
  const all = [...app.rollouts, ...app.routings].flatMap((r) => r.providers.map((p) => p.generator));
  return [...new Set(all)];
}

/** A RequestColoring becomes its EnvoyFilter right away: a static object, positioned at its spec. */
function readRequestColoring(doc: ParsedDocument, manifests: SourceObject[], diagnostics: Diagnostic[]): void {
  const problems = validateSchema('rollgen-request-coloring', doc);
  diagnostics.push(...problems);
  if (problems.length > 0) return;
  const v = doc.value as {
    metadata: { name: string; namespace?: string };
    spec: Omit<RequestColoring, 'name' | 'namespace'>;
  };
  const coloring: RequestColoring = {
    name: v.metadata.name,
    ...(v.metadata.namespace ? { namespace: v.metadata.namespace } : {}),
    ...v.spec,
  };
  manifests.push({ object: coloringEnvoyFilter(coloring), origin: doc.origin, locate: doc.locate });
}

function readTrafficRouting(doc: ParsedDocument, out: SharedRouting[], diagnostics: Diagnostic[]): void {
  const fieldProblems = checkFields(doc, TRAFFIC_ROUTING_FIELDS);
  diagnostics.push(...fieldProblems);
  if (hasErrors(fieldProblems)) return;
  const problems = validateSchema('kruise-trafficrouting', doc);
  diagnostics.push(...problems);
  if (problems.length > 0) return;
  const { routing, diagnostics: found } = normalizeTrafficRouting(doc, providerInputs);
  diagnostics.push(...found);
  out.push(routing);
}

/** Each TrafficRouting with its members; members must exist in the app and share one step count (lock-step). */
function loadRoutings(
  app: string,
  shared: readonly SharedRouting[],
  rollouts: readonly LoadedRollout[],
  resources: ResourceSet,
  policy: GatePolicy,
  out: Diagnostic[],
): LoadedRouting[] {
  for (const r of rollouts) {
    const ref = r.spec.trafficRoutingRef;
    if (!ref || shared.some((s) => s.name === ref)) continue;
    const near = suggestName(
      ref,
      shared.map((s) => s.name),
    );
    const fix = near ? `did you mean "${near}"?` : 'put the TrafficRouting and every rollout sharing it in one app';
    out.push({
      ...(r.spec.trafficRoutingRefOrigin ?? r.spec.origin),
      message: `rollout ${r.spec.name} references TrafficRouting "${ref}", which is not in app ${app}; ${fix}`,
      severity: 'error',
    });
  }
  return shared.flatMap((s) => {
    const members = rollouts.filter((r) => r.spec.trafficRoutingRef === s.name);
    const counts = new Set(members.map((m) => m.plan.steps.length));
    if (counts.size > 1) {
      const list = members.map((m) => `${m.spec.name} (${m.plan.steps.length})`).join(', ');
      out.push({
        ...s.rollout.origin,
        message: `rollouts sharing TrafficRouting ${s.name} advance in lock-step, so they need the same number of steps; found ${list}`,
        severity: 'error',
      });
    }
    // Subsets select canary pods by the members' patchPodTemplateMetadata labels.
    const rollout: RolloutSpec = {
      ...s.rollout,
      canaryPodMetadata: members[0]?.spec.canaryPodMetadata ?? s.rollout.canaryPodMetadata,
    };
    const providers = bindProviders(app, rollout, resources, out);
    if (!providers) return [];
    const plan = buildPlan(rollout, 1, policy);
    checkExpressible(app, rollout, plan, providers, out);
    return [{ spec: { ...s, rollout }, plan, providers, members: members.map((m) => m.spec.name) }];
  });
}

function collectRouteTemplate(doc: ParsedDocument, out: RouteTemplateInput[], diagnostics: Diagnostic[]): void {
  const problems = validateSchema('rollgen-route-template', doc);
  diagnostics.push(...problems);
  if (problems.length === 0) out.push(readRouteTemplate(doc));
}

/** Each step with the requests its providers' own options send to the canary (plan and status show them). */
function withProviderMatches(plan: Plan, providers: readonly BoundProvider[]): Plan {
  const steps = plan.steps.map((step) => {
    const found = providers.flatMap((p) => p.generator.providerMatches?.(p.options, step.traffic) ?? []);
    return found.length > 0 ? { ...step, providerMatches: found } : step;
  });
  return steps.some((s, i) => s !== plan.steps[i]) ? { ...plan, steps } : plan;
}

function loadRollout(
  app: string,
  spec: RolloutSpec,
  resources: ResourceSet,
  policy: GatePolicy,
  out: Diagnostic[],
): LoadedRollout | undefined {
  const problems = checkRollout(spec, resources);
  out.push(...problems, ...serviceWaveWarnings(spec, resources), ...autoscalerWarnings(spec, resources));
  // Providers are checked even when a rule failed, so one run reports every problem.
  const providers = bindProviders(app, spec, resources, out);
  const found = resources.find('Deployment', spec.workload.name, spec.namespace)?.object;
  const deployment = spec.workload.synthesized ?? (found && withDeploymentSpec(found, spec.workload.deploymentSpec));
  if (!deployment || problems.some((d) => d.severity === 'error') || !providers) return undefined;
  const plan = withProviderMatches(
    buildPlan(spec, spec.workload.replicasOverride ?? replicasOf(deployment), policy),
    providers,
  );
  out.push(...exposureWarnings(spec, plan));
  checkExpressible(app, spec, plan, providers, out);
  checkPingPong(app, spec, providers, out);
  return { spec, deployment, plan, providers };
}

/** An Argo workloadRef: the Rollout's Deployment fields (minReadySeconds, ...) win over the Deployment's, as Argo's ReplicaSets follow the Rollout. */
function withDeploymentSpec(deployment: KubeObject, fields: Readonly<Record<string, unknown>> = {}): KubeObject {
  if (Object.keys(fields).length === 0) return deployment;
  return { ...deployment, spec: { ...(deployment.spec as Record<string, unknown>), ...fields } };
}

function bindProviders(
  app: string,
  spec: RolloutSpec,
  resources: ResourceSet,
  out: Diagnostic[],
): BoundProvider[] | undefined {
  const bound: BoundProvider[] = [];
  for (const ref of spec.traffic.providers) {
    const generator = getGenerator(ref.provider);
    if (!generator) {
      out.push({
        ...ref.origin,
        message: `app ${app}, rollout ${spec.name}: traffic provider ${ref.provider} is unknown`,
        severity: 'error',
      });
      return undefined;
    }
    const { options, diagnostics } = bindOptions(generator, ref);
    out.push(...diagnostics);
    // Every provider check looks for the stable Service; without one the rules' error is the cause to show.
    if (diagnostics.length > 0 || lacksStableService(spec)) return undefined;
    const provider: BoundProvider = {
      generator,
      options,
      origin: ref.origin,
      ...(ref.locate ? { locate: ref.locate } : {}),
    };
    const context = generatorContext(app, spec, resources, provider);
    // Replicas do not change a step's traffic, so any total gives the steps' traffic states.
    const problems = generator.check({ ...context, steps: buildPlan(spec, 1).steps });
    out.push(...problems);
    if (problems.some((p) => p.severity === 'error')) return undefined;
    bound.push(provider);
  }
  return bound;
}

/** What a provider cannot express is an error at plan time naming app, step, provider and feature. */
function checkExpressible(
  app: string,
  spec: RolloutSpec,
  plan: Plan,
  providers: readonly BoundProvider[],
  out: Diagnostic[],
): void {
  for (const step of plan.steps) {
    for (const { generator } of providers) {
      const missing = missingFeatures(generator.capabilities, step.traffic);
      const features = missing.length > 0 ? missing : (generator.unsupported?.(step.traffic) ?? []);
      for (const feature of features) {
        const origin = spec.steps[step.index - 1].origin;
        out.push({
          ...origin,
          message: `app ${app}, rollout ${spec.name}, step ${step.index}: provider ${generator.id} cannot express ${feature}`,
          severity: 'error',
        });
      }
    }
  }
}

/** Argo pingPong works with the providers that route to two Services by name (Argo: ALB and Istio host-level). */
function checkPingPong(app: string, spec: RolloutSpec, providers: readonly BoundProvider[], out: Diagnostic[]): void {
  if (!spec.pingPong) return;
  const able = listGenerators()
    .filter((g) => g.capabilities.pingPong)
    .map((g) => g.id)
    .join(', ');
  // Beside a stable/canary pair the other providers route that pair, as in Argo.
  if (spec.pingPong.alongside) return;
  for (const { generator } of providers.filter((p) => !p.generator.capabilities.pingPong)) {
    out.push({
      ...spec.pingPong.origin,
      message: `app ${app}, rollout ${spec.name}: provider ${generator.id} cannot express pingPong (the ping and pong Services swapping the stable and canary roles); use ${able}, or stableService/canaryService`,
      severity: 'error',
    });
  }
}

function checkDuplicates(manifests: readonly SourceObject[], out: Diagnostic[]): void {
  const seen = new Map<string, SourceObject>();
  for (const m of manifests) {
    const key = objectKey(m.object);
    const first = seen.get(key);
    if (first)
      out.push({
        ...m.origin,
        message: `duplicate ${m.object.kind} "${m.object.metadata.name}" (first at ${first.origin.file}:${first.origin.line})`,
        severity: 'error',
      });
    else seen.set(key, m);
  }
}

function checkOneRolloutPerWorkload(specs: readonly RolloutSpec[], out: Diagnostic[]): void {
  const owner = new Map<string, RolloutSpec>();
  for (const s of specs) {
    const first = owner.get(s.workload.name);
    if (first)
      out.push({
        ...s.origin,
        message: `rollouts ${first.name} and ${s.name} both manage Deployment "${s.workload.name}"; keep one`,
        severity: 'error',
      });
    else owner.set(s.workload.name, s);
  }
}
