import type { InputAdapters, InputBlock } from '../../src/contract/inputs';
import { arr, obj, str } from '../../src/model/values';

/** Kruise `trafficRoutings[].gateway` and the Argo gatewayAPI plugin. */
export const inputs: InputAdapters = {
  argo: { key: 'plugins/argoproj-labs/gatewayAPI', options: argoGatewayOptions },
  kruiseGateway: { options: (gateway) => ({ httpRoutes: [str(gateway.httpRouteName) ?? ''] }) },
};

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
function argoGatewayOptions(g: InputBlock): Record<string, unknown> {
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
