import ingressNginx from './ingress-nginx';
import istio from './istio';
import type { TrafficGenerator } from './types';

/** Every traffic provider, by id. Explicit on purpose: no discovery, one place to read. */
const generators = {
  'ingress-nginx': ingressNginx,
  istio,
} satisfies Record<string, TrafficGenerator>;

/** Providers the formats can name but rollgen does not render yet; they fail with a clear message. */
export const PLANNED_PROVIDERS = ['aliyun-alb', 'higress', 'mse', 'aws-alb', 'gateway-api', 'traefik', 'apisix', 'ambassador', 'smi', 'custom'];

const registry = new Map<string, TrafficGenerator>(Object.entries(generators));

export function getGenerator(id: string): TrafficGenerator | undefined {
  return registry.get(id);
}

export function listGenerators(): TrafficGenerator[] {
  return [...registry.values()];
}

/** For library users and tests. */
export function registerGenerator(generator: TrafficGenerator): void {
  registry.set(generator.id, generator);
}
