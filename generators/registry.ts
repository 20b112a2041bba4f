import type { TrafficGenerator } from '../src/contract/generator';
import type { InputBlock, ProviderInput, ProviderInputs } from '../src/contract/inputs';
import aliyunAlb from './aliyun-alb';
import ambassador from './ambassador';
import apisix from './apisix';
import appMesh from './app-mesh';
import awsAlb from './aws-alb';
import custom from './custom';
import gatewayApi from './gateway-api';
import higress from './higress';
import ingressNginx from './ingress-nginx';
import istio from './istio';
import mse from './mse';
import smi from './smi';
import traefik from './traefik';

/** Every traffic provider, by id. Explicit on purpose: no discovery, one place to read. */
const generators = {
  'aliyun-alb': aliyunAlb,
  ambassador,
  apisix,
  'app-mesh': appMesh,
  'aws-alb': awsAlb,
  custom,
  'gateway-api': gatewayApi,
  higress,
  'ingress-nginx': ingressNginx,
  istio,
  mse,
  smi,
  traefik,
} satisfies Record<string, TrafficGenerator>;

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

/** The normalizers' view of every registered generator's input adapters (read at each call, so registered extras count). */
export const providerInputs: ProviderInputs = {
  argo(key, block) {
    const g = listGenerators().find((x) => x.inputs?.argo?.key === key);
    return g && input(g, g.inputs?.argo?.options?.(block) ?? { ...block });
  },
  kruiseIngress(classType, ingress) {
    const g = listGenerators().find((x) => x.inputs?.kruiseIngress?.classTypes.includes(classType));
    return g && input(g, g.inputs!.kruiseIngress!.options(ingress));
  },
  get kruiseIngressClasses() {
    return listGenerators()
      .flatMap((g) => g.inputs?.kruiseIngress?.classTypes ?? [])
      .sort();
  },
  kruiseGateway(gateway) {
    const g = listGenerators().find((x) => x.inputs?.kruiseGateway);
    return g && input(g, g.inputs!.kruiseGateway!.options(gateway));
  },
  kruiseCustomRefs(refs: readonly InputBlock[]) {
    const takers = listGenerators().filter((x) => x.inputs?.kruiseCustomRefs);
    const g =
      takers.find((x) => x.inputs!.kruiseCustomRefs!.accepts?.(refs)) ??
      takers.find((x) => !x.inputs!.kruiseCustomRefs!.accepts);
    return g && input(g, { refs });
  },
};

const input = (g: TrafficGenerator, options: Record<string, unknown>): ProviderInput => ({ provider: g.id, options });
