import { isObject, KubeObject } from '../../src/model/kube';
import type { SimBackend, SimRequest, SimResult } from '../../src/contract/generator';
import { matches, priorityOf } from './rule';
import { isTraefik, Json, listOf, specOf } from './options';

/**
 * Evaluates a request as Traefik would: the IngressRoute routes by priority (explicit, else the
 * rule's length, longest first), the first whose rule matches picks its services; a
 * TraefikService splits by weight (default 1) or mirrors a percentage to its mirrors, nesting as
 * written. A TraefikService naming a Service that does not exist fails as a whole in Traefik, so
 * every request it gets goes to that missing Service (no pods). Without IngressRoutes, requests
 * enter at the TraefikServices no other one references.
 */
export function simulate(objects: readonly KubeObject[], request: SimRequest): SimResult | undefined {
  const routes = objects
    .filter((o) => isTraefik(o, 'IngressRoute'))
    .flatMap((o) => listOf(specOf(o).routes).map((r) => ({ o, r })))
    .sort((a, b) => priorityOf(b.r) - priorityOf(a.r));
  if (routes.length === 0) return enterAtTop(objects);
  const hit = routes.find(({ r }) => matches(String(r.match ?? ''), request));
  if (!hit) return undefined;
  const result = resolveAll(objects, listOf(hit.r.services), hit.o.metadata.namespace);
  return { ...result, rule: `IngressRoute ${hit.o.metadata.name} ${String(hit.r.match)}` };
}

function enterAtTop(objects: readonly KubeObject[]): SimResult | undefined {
  const services = objects.filter((o) => isTraefik(o, 'TraefikService'));
  const referenced = new Set(services.flatMap((s) => refsOf(s).map((r) => String(r.name))));
  const top = services.find((s) => !referenced.has(s.metadata.name));
  if (!top) return undefined;
  const result = resolve(objects, { name: top.metadata.name, kind: 'TraefikService' }, top.metadata.namespace);
  return { ...result, rule: `TraefikService ${top.metadata.name}` };
}

type Resolved = Omit<SimResult, 'rule'>;

function resolveAll(objects: readonly KubeObject[], refs: readonly Json[], ns?: string): Resolved {
  const weights = refs.map((r) => (typeof r.weight === 'number' ? r.weight : 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const backends: SimBackend[] = [];
  let mirror: SimBackend | undefined;
  refs.forEach((ref, i) => {
    if (weights[i] <= 0 || total <= 0) return;
    const inner = resolve(objects, ref, ns);
    backends.push(...inner.backends.map((b) => ({ ...b, share: (b.share * weights[i]) / total })));
    mirror = mirror ?? inner.mirror;
  });
  return { backends, ...(mirror ? { mirror } : {}) };
}

function resolve(objects: readonly KubeObject[], ref: Json, ns?: string, depth = 0): Resolved {
  const name = String(ref.name ?? '');
  if (ref.kind !== 'TraefikService') return { backends: [{ service: name, share: 1 }] };
  const ts = objects.find((o) => isTraefik(o, 'TraefikService') && o.metadata.name === name);
  if (!ts || depth > 8) return { backends: [{ service: `<TraefikService ${name}>`, share: 1 }] };
  const missing = refsOf(ts).find(
    (r) => r.kind !== 'TraefikService' && !objects.some((o) => o.kind === 'Service' && o.metadata.name === r.name),
  );
  if (missing) return { backends: [{ service: String(missing.name), share: 1 }] };
  const spec = specOf(ts);
  if (isObject(spec.weighted)) return resolveAll(objects, listOf(spec.weighted.services), ns);
  if (!isObject(spec.mirroring)) return { backends: [] };
  const main = resolve(objects, spec.mirroring, ns, depth + 1);
  const copy = listOf(spec.mirroring.mirrors)[0];
  const mirror = copy ? { service: String(copy.name), share: Number(copy.percent ?? 0) / 100 } : undefined;
  return { backends: main.backends, ...(mirror && mirror.share > 0 ? { mirror } : {}) };
}

/** Every service a TraefikService names: weighted services, a mirroring's main service and mirrors. */
function refsOf(ts: KubeObject): Json[] {
  const spec = specOf(ts);
  if (isObject(spec.weighted)) return listOf(spec.weighted.services);
  if (isObject(spec.mirroring)) return [spec.mirroring, ...listOf(spec.mirroring.mirrors)];
  return [];
}
