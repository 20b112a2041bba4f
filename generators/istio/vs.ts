import { isObject, KubeObject } from '../../src/model/kube';
import type { ResourceSet, SourceObject } from '../../src/model/resource-set';
import { groupOf, VsTarget } from './options';

export type Json = Record<string, unknown>;
export type Protocol = 'http' | 'tls' | 'tcp';
export const PROTOCOLS: readonly Protocol[] = ['http', 'tls', 'tcp'];

/** One rule of `spec.http|tls|tcp` the rollout weights. */
export interface ManagedRule {
  readonly protocol: Protocol;
  readonly index: number;
  /** The rule's name, else `#index`, for messages and claims. */
  readonly label: string;
}

/** How this rollout tells its destinations apart, in host mode or subset mode. */
export interface Roles {
  isStable(destination: Json): boolean;
  isCanary(destination: Json): boolean;
  /** The canary destination that shadows a stable one (same port, and same host in subset mode). */
  canaryFor(stable: Json): Json;
}

export const asList = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
export const specOf = (o: KubeObject): Json => (isObject(o.spec) ? o.spec : {});
export const rulesOf = (o: KubeObject, p: Protocol): Json[] => asList(specOf(o)[p]);
export const destinationOf = (routeDestination: Json): Json =>
  isObject(routeDestination.destination) ? routeDestination.destination : {};

/** `svc`, `svc.ns` and `svc.ns.svc.cluster.local` all name Service `svc` (Argo and Kruise compare the first label). */
export const shortHost = (host: unknown): string => (typeof host === 'string' ? host.split('.')[0] : '');

/** The object of `kind` by name in the target's namespace, if its group is networking.istio.io whatever its version. */
export function findIstio(
  resources: ResourceSet,
  kind: string,
  target: { name: string; namespace?: string; group: string },
): SourceObject | undefined {
  const found = resources.find(kind, target.name, target.namespace);
  return found && groupOf(found.object.apiVersion) === target.group ? found : undefined;
}

export function ruleLabel(rule: Json, index: number): string {
  return typeof rule.name === 'string' && rule.name !== '' ? rule.name : `#${index}`;
}

/**
 * The rules one target weights. Argo: the named http routes (or the only / first unnamed one when
 * none are named and no tls/tcp routes are), tls routes by port + SNI hosts, tcp routes by port.
 * Kruise: every rule without `match` that has a stable destination. Problems are plain sentences.
 */
export function selectRules(
  vs: KubeObject,
  target: VsTarget,
  roles: Roles,
  managedNames: readonly string[],
): { rules: ManagedRule[]; problems: string[]; unweighted?: ManagedRule[] } {
  const problems: string[] = [];
  const rules: ManagedRule[] = [];
  const add = (protocol: Protocol, index: number) =>
    rules.push({ protocol, index, label: ruleLabel(rulesOf(vs, protocol)[index], index) });
  if (!target.select) {
    // Kruise weights only rules without a match; those with one keep all their traffic on stable.
    const unweighted: ManagedRule[] = [];
    for (const p of PROTOCOLS)
      rulesOf(vs, p).forEach((r, i) => {
        if (!hasStable(r, roles)) return;
        if (!r.match) add(p, i);
        else unweighted.push({ protocol: p, index: i, label: ruleLabel(r, i) });
      });
    if (rules.length === 0) problems.push('has no rule without a match that routes to the stable Service');
    return { rules, problems, unweighted };
  }
  const { http, tls, tcp } = target.select;
  // Argo checks the named http routes only when the VirtualService has an http section (a TLS-only one ignores them).
  for (const name of hasHttpSection(vs) ? (http ?? []) : []) {
    const i = rulesOf(vs, 'http').findIndex((r) => r.name === name);
    if (i < 0) problems.push(`has no http route named "${name}"`);
    else add('http', i);
  }
  if (!http && tls.length === 0 && tcp.length === 0) pickDefaultHttp(vs, managedNames, add, problems);
  tls.forEach((t) =>
    pickBy(vs, 'tls', (m) => portFits(m, t.port) && sniFits(m, t.sniHosts), describeTls(t), add, problems),
  );
  tcp.forEach((t) =>
    pickBy(vs, 'tcp', (m) => portFits(m, t.port), `tcp route for port ${t.port ?? '(any)'}`, add, problems),
  );
  // A delegate route has no destinations of its own; the caller refuses it at the route.
  for (const r of rules.filter((r) => !delegateOf(rulesOf(vs, r.protocol)[r.index])))
    if (!hasStable(rulesOf(vs, r.protocol)[r.index], roles))
      problems.push(`${r.protocol} route ${r.label} has no destination to the stable Service or subset`);
  return { rules, problems };
}

export function hasHttpSection(vs: KubeObject): boolean {
  return specOf(vs).http !== undefined;
}

/** Argo without `routes`: the single http route (managed routes aside), else the first unnamed one. */
function pickDefaultHttp(
  vs: KubeObject,
  managed: readonly string[],
  add: (p: Protocol, i: number) => void,
  problems: string[],
): void {
  const candidates = rulesOf(vs, 'http')
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => !managed.includes(String(r.name)));
  const pick = candidates.length === 1 ? candidates[0] : candidates.find(({ r }) => r.name === undefined);
  if (pick) add('http', pick.i);
  else problems.push('has several named http routes and the rollout names none; list them in virtualService.routes');
}

function pickBy(
  vs: KubeObject,
  p: Protocol,
  fits: (m: Json) => boolean,
  what: string,
  add: (p: Protocol, i: number) => void,
  problems: string[],
): void {
  // A rule without `match` fits only an entry that names no port or SNI hosts (Argo's "index 0" default).
  const i = rulesOf(vs, p).findIndex((r) => (asList(r.match).length === 0 ? fits({}) : asList(r.match).some(fits)));
  if (i < 0) problems.push(`has no ${what}`);
  else add(p, i);
}

const portFits = (m: Json, port?: number): boolean => port === undefined || m.port === port;

function sniFits(m: Json, hosts?: readonly string[]): boolean {
  if (hosts === undefined) return true;
  const have = Array.isArray(m.sniHosts) ? m.sniHosts.map(String).sort() : [];
  return have.length === hosts.length && [...hosts].sort().every((h, i) => h === have[i]);
}

const describeTls = (t: { port?: number; sniHosts?: readonly string[] }): string =>
  `tls route for port ${t.port ?? '(any)'} and SNI hosts [${(t.sniHosts ?? []).join(', ')}]`;

/** The VirtualService a route delegates to (`delegate.name`), if it delegates. */
export function delegateOf(rule: Json): string | undefined {
  return isObject(rule.delegate) ? String(rule.delegate.name ?? '') : undefined;
}

export function hasStable(rule: Json, roles: Roles): boolean {
  return asList(rule.route).some((d) => roles.isStable(destinationOf(d)));
}
