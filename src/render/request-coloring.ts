import { compareText } from '../diagnostics';
import { KubeObject } from '../model/kube';

/** A RequestColoring spec: every request leaves the gateway with `header` set by the first matching rule. */
export interface RequestColoring {
  readonly name: string;
  readonly namespace?: string;
  readonly gateway: Readonly<Record<string, string>>;
  readonly header: string;
  readonly rules: readonly { readonly when: Readonly<Record<string, string>>; readonly value: string }[];
  readonly default: string;
}

/**
 * The EnvoyFilter that colours requests at the ingress gateway: a Lua filter before the router.
 * The header is replaced, never appended, so a client cannot pick its own lane. The Lua has one
 * fixed shape (if/elseif/else over exact header compares) that the simulator reads back.
 */
export function coloringEnvoyFilter(c: RequestColoring): KubeObject {
  return {
    apiVersion: 'networking.istio.io/v1alpha3',
    kind: 'EnvoyFilter',
    metadata: {
      name: c.name,
      ...(c.namespace ? { namespace: c.namespace } : {}),
      labels: { 'app.kubernetes.io/managed-by': 'rollgen' },
    },
    spec: {
      workloadSelector: { labels: { ...c.gateway } },
      configPatches: [
        {
          applyTo: 'HTTP_FILTER',
          match: {
            context: 'GATEWAY',
            listener: {
              filterChain: {
                filter: {
                  name: 'envoy.filters.network.http_connection_manager',
                  subFilter: { name: 'envoy.filters.http.router' },
                },
              },
            },
          },
          patch: {
            operation: 'INSERT_BEFORE',
            value: {
              name: 'envoy.filters.http.lua',
              typed_config: {
                '@type': 'type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua',
                inlineCode: coloringLua(c),
              },
            },
          },
        },
      ],
    },
  };
}

export function coloringLua(c: RequestColoring): string {
  const lines = ['function envoy_on_request(request_handle)', '  local headers = request_handle:headers()'];
  c.rules.forEach((rule, i) => {
    const test = Object.entries(rule.when)
      .sort(([a], [b]) => compareText(a, b))
      .map(([name, value]) => `headers:get(${lua(name.toLowerCase())}) == ${lua(value)}`)
      .join(' and ');
    lines.push(
      `  ${i === 0 ? 'if' : 'elseif'} ${test} then`,
      `    headers:replace(${lua(c.header.toLowerCase())}, ${lua(rule.value)})`,
    );
  });
  lines.push('  else', `    headers:replace(${lua(c.header.toLowerCase())}, ${lua(c.default)})`, '  end', 'end', '');
  return lines.join('\n');
}

/** A Lua string literal; the schema limits values to printable ASCII, so escaping \ and " is enough. */
function lua(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
