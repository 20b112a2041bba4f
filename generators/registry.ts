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
import type { TrafficGenerator } from './types';

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
