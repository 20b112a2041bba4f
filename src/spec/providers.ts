import { getGenerator } from '../../generators/registry';
import { Diagnostic } from '../diagnostics';
import { ParsedDocument } from '../yaml/parse';
import { ProviderRef, RolloutSpec } from './types';
import { arr, obj, str, stringMap } from './values';

export interface NormalizeResult {
  readonly rollout: RolloutSpec;
  readonly diagnostics: readonly Diagnostic[];
}

/** Kruise ingress classType -> rollgen provider id. */
const KRUISE_INGRESS_CLASSES: Readonly<Record<string, string>> = {
  nginx: 'ingress-nginx',
  'aliyun-alb': 'aliyun-alb',
  higress: 'higress',
  mse: 'mse',
};

type Path = (string | number)[];

/** One Kruise trafficRoutings entry (or TrafficRouting objectRef) -> provider refs. */
export function providerFromKruiseRouting(
  doc: ParsedDocument,
  routing: Record<string, unknown>,
  path: Path,
  out: Diagnostic[],
): ProviderRef[] {
  const refs: ProviderRef[] = [];
  const ingress = obj(routing.ingress);
  if (routing.ingress !== undefined) {
    const classType = str(ingress.classType) ?? 'nginx';
    const provider = KRUISE_INGRESS_CLASSES[classType];
    if (!provider) {
      const o = doc.locate([...path, 'ingress', 'classType']);
      out.push({
        ...o,
        message: `ingress classType "${classType}" is unknown; use one of ${Object.keys(KRUISE_INGRESS_CLASSES).join(', ')}`,
        severity: 'error',
      });
    } else {
      refs.push({
        provider,
        origin: doc.locate([...path, 'ingress']),
        options: { ingresses: [str(ingress.name) ?? ''] },
      });
    }
  }
  if (routing.gateway !== undefined) {
    refs.push({
      provider: 'gateway-api',
      origin: doc.locate([...path, 'gateway']),
      options: { httpRoutes: [str(obj(routing.gateway).httpRouteName) ?? ''] },
    });
  }
  const custom = arr(routing.customNetworkRefs).map(obj);
  if (custom.length > 0) {
    const istio = custom.every(isIstioRef);
    refs.push({
      provider: istio ? 'istio' : 'custom',
      origin: doc.locate([...path, 'customNetworkRefs']),
      options: { refs: custom },
    });
  }
  // Kruise would route nothing for such an entry; rollgen will not quietly fall back to pods.
  if (refs.length === 0 && routing.ingress === undefined)
    out.push({
      ...doc.locate(path),
      message:
        'this traffic routing names no ingress, gateway or customNetworkRefs, so nothing would route traffic to the canary; add one, or remove the entry to roll out by pod counts',
      severity: 'error',
    });
  return refs;
}

const GATEWAY_PLUGIN = 'argoproj-labs/gatewayAPI';

/** Argo trafficRouting -> provider refs, in Argo's reconcile order. A plugin rollgen has no generator for is refused by name. */
export function providersFromArgo(
  doc: ParsedDocument,
  routing: Record<string, unknown>,
  path: Path,
  out: Diagnostic[],
): ProviderRef[] {
  for (const plugin of Object.keys(obj(routing.plugins)).filter((p) => p !== GATEWAY_PLUGIN))
    out.push({
      ...doc.locate([...path, 'plugins', plugin]),
      message: `traffic router plugin ${plugin} is not supported: rollgen renders ${supportedArgoRouters()}; use one of them`,
      severity: 'error',
    });
  const at = (key: string) => doc.locate([...path, key]);
  const refs: ProviderRef[] = [];
  if (routing.istio !== undefined) refs.push({ provider: 'istio', origin: at('istio'), options: obj(routing.istio) });
  if (routing.nginx !== undefined)
    refs.push({ provider: 'ingress-nginx', origin: at('nginx'), options: argoNginxOptions(obj(routing.nginx)) });
  if (routing.alb !== undefined)
    refs.push({ provider: 'aws-alb', origin: at('alb'), options: argoAlbOptions(obj(routing.alb)) });
  if (routing.smi !== undefined) refs.push({ provider: 'smi', origin: at('smi'), options: obj(routing.smi) });
  if (routing.ambassador !== undefined)
    refs.push({ provider: 'ambassador', origin: at('ambassador'), options: obj(routing.ambassador) });
  if (routing.traefik !== undefined)
    refs.push({ provider: 'traefik', origin: at('traefik'), options: obj(routing.traefik) });
  if (routing.apisix !== undefined)
    refs.push({ provider: 'apisix', origin: at('apisix'), options: obj(routing.apisix) });
  const gateway = obj(routing.plugins)[GATEWAY_PLUGIN];
  if (gateway !== undefined)
    refs.push({ provider: 'gateway-api', origin: at('plugins'), options: argoGatewayOptions(obj(gateway)) });
  return refs;
}

/** The Argo trafficRouting keys rollgen has a generator for, as a user writes them. */
function supportedArgoRouters(): string {
  const keys = Object.entries(ARGO_ROUTER_PROVIDERS)
    .filter(([, provider]) => getGenerator(provider))
    .map(([key]) => key);
  return [...keys, `plugins.${GATEWAY_PLUGIN}`].join(', ');
}

/** Argo trafficRouting key -> rollgen provider id. */
const ARGO_ROUTER_PROVIDERS: Readonly<Record<string, string>> = {
  istio: 'istio',
  nginx: 'ingress-nginx',
  alb: 'aws-alb',
  smi: 'smi',
  ambassador: 'ambassador',
  traefik: 'traefik',
  apisix: 'apisix',
  appMesh: 'app-mesh',
};

function argoNginxOptions(nginx: Record<string, unknown>): Record<string, unknown> {
  const single = str(nginx.stableIngress);
  return {
    ingresses: single ? [single] : arr(nginx.stableIngresses).map(String),
    ...(str(nginx.annotationPrefix) ? { annotationPrefix: str(nginx.annotationPrefix) } : {}),
    additionalIngressAnnotations: stringMap(nginx.additionalIngressAnnotations),
    canaryIngressAnnotations: stringMap(nginx.canaryIngressAnnotations),
  };
}

/** Argo `alb` -> aws-alb options: `ingress` and `ingresses` merged, the rest as written (the generator schema validates it). */
function argoAlbOptions(alb: Record<string, unknown>): Record<string, unknown> {
  const single = str(alb.ingress);
  const ingresses = [...(single ? [single] : []), ...arr(alb.ingresses).map(String)];
  const { ingress: _single, ingresses: _many, ...rest } = alb;
  return { ...rest, ingresses: [...new Set(ingresses)] };
}

/** Plugin keys mapped below; any other key is handed over in `unsupported` so the generator refuses it by name. */
const ARGO_GATEWAY_KEYS = [
  'httpRoute',
  'httpRoutes',
  'namespace',
  'inProgressLabelKey',
  'inProgressLabelValue',
  'disableInProgressLabel',
  'configMap',
];

/**
 * argoproj-labs/gatewayAPI plugin options -> the gateway-api options shape (the Kruise one plus
 * extras): `httpRoute: x` is `httpRoutes: [{name: x, useHeaderRoutes: true}]`, as the plugin reads it.
 * `configMap` (older plugin state) is accepted and ignored.
 */
function argoGatewayOptions(g: Record<string, unknown>): Record<string, unknown> {
  const single = str(g.httpRoute);
  const list = arr(g.httpRoutes).map(obj);
  const routes = [
    ...(single ? [{ name: single, useHeaderRoutes: true }] : []),
    ...list.map((r) => ({ name: str(r.name) ?? '', useHeaderRoutes: r.useHeaderRoutes === true })),
  ];
  const labelKey = str(g.inProgressLabelKey) ?? 'rollouts.argoproj.io/gatewayapi-canary';
  const labelValue = str(g.inProgressLabelValue) ?? 'in-progress';
  return {
    httpRoutes: routes.map((r) => r.name),
    useHeaderRoutes: routes.filter((r) => r.useHeaderRoutes).map((r) => r.name),
    ...(str(g.namespace) ? { namespace: str(g.namespace) } : {}),
    ...(g.disableInProgressLabel === true ? {} : { inProgressLabel: { key: labelKey, value: labelValue } }),
    unsupported: Object.keys(g)
      .filter((k) => !ARGO_GATEWAY_KEYS.includes(k))
      .sort(),
  };
}

/** Kruise ships Lua for these two kinds only; matched by group and kind, whatever version the ref writes. */
function isIstioRef(ref: Record<string, unknown>): boolean {
  const apiVersion = str(ref.apiVersion) ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  return group === 'networking.istio.io' && (ref.kind === 'VirtualService' || ref.kind === 'DestinationRule');
}
