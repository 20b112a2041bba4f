import { diagnosticAt } from '../diagnostics';
import { isObject } from '../model/kube';
import { ProviderFields, textAt } from './provider-fields';
import { PrometheusAuth } from './types';

/**
 * Argo's `prometheus.authentication`: `basicAuth`, `oauth2` (client credentials) and `sigv4` (Amazon
 * Managed Prometheus). Secrets in them come from secret args (`{{args.x}}`), filled when measuring. Pure.
 */
export function prometheusAuth(f: ProviderFields, address: string | undefined): PrometheusAuth | undefined {
  const raw = f.body.authentication;
  if (raw === undefined || raw === null) return undefined;
  const at = (...p: (string | number)[]) => f.here('authentication', ...p);
  if (!isObject(raw)) {
    f.out.push(diagnosticAt(at(), 'prometheus authentication must be a map of basicAuth, oauth2 or sigv4'));
    return undefined;
  }
  const known = ['basicAuth', 'oauth2', 'sigv4'];
  for (const k of Object.keys(raw).filter((k) => !known.includes(k)))
    f.out.push(diagnosticAt(at(k), `prometheus authentication ${k} is not an Argo field; known: ${known.join(', ')}`));
  const part = (name: string, fields: readonly string[]): Readonly<Record<string, unknown>> | undefined => {
    const v = raw[name];
    if (v === undefined || v === null) return undefined;
    if (!isObject(v)) {
      f.out.push(diagnosticAt(at(name), `prometheus authentication.${name} must be a map`));
      return undefined;
    }
    for (const k of Object.keys(v).filter((k) => !fields.includes(k)))
      f.out.push(diagnosticAt(at(name, k), `${name} field ${k} is not an Argo field; known: ${fields.join(', ')}`));
    return v;
  };
  const text = (name: string, v: Readonly<Record<string, unknown>>, k: string, required: boolean) =>
    textAt(f, v[k], ['authentication', name, k], required);
  const basic = part('basicAuth', ['username', 'password']);
  const oauth = part('oauth2', ['tokenUrl', 'clientId', 'clientSecret', 'scopes']);
  const sig = part('sigv4', ['region', 'profile', 'roleArn']);
  const auth: PrometheusAuth = {
    ...(basic && (basic.username || basic.password)
      ? {
          basic: {
            username: text('basicAuth', basic, 'username', true) ?? '',
            password: text('basicAuth', basic, 'password', true) ?? '',
          },
        }
      : {}),
    ...(oauth && oauth.tokenUrl ? { oauth2: oauth2(f, oauth, text) } : {}),
    ...(sig ? sigv4(f, sig, address, text, at) : {}),
  };
  return Object.keys(auth).length > 0 ? auth : undefined;
}

type Text = (name: string, v: Readonly<Record<string, unknown>>, k: string, required: boolean) => string | undefined;

function oauth2(
  f: ProviderFields,
  v: Readonly<Record<string, unknown>>,
  text: Text,
): NonNullable<PrometheusAuth['oauth2']> {
  const scopes = v.scopes === undefined ? [] : v.scopes;
  if (!Array.isArray(scopes))
    f.out.push(diagnosticAt(f.here('authentication', 'oauth2', 'scopes'), 'oauth2 scopes must be a list of strings'));
  return {
    tokenUrl: text('oauth2', v, 'tokenUrl', true) ?? '',
    // Argo: "missing mandatory parameter in metric for OAuth2 setup".
    clientId: text('oauth2', v, 'clientId', true) ?? '',
    clientSecret: text('oauth2', v, 'clientSecret', true) ?? '',
    scopes: Array.isArray(scopes)
      ? scopes.map((s, i) => textAt(f, s, ['authentication', 'oauth2', 'scopes', i], true) ?? '')
      : [],
  };
}

/**
 * Argo signs with SigV4 only when the address is Amazon Managed Prometheus (`aps-workspaces`) and
 * ignores sigv4 elsewhere: rollgen does the same, and says so where sigv4 is written.
 */
function sigv4(
  f: ProviderFields,
  v: Readonly<Record<string, unknown>>,
  address: string | undefined,
  text: Text,
  at: (...p: (string | number)[]) => ReturnType<ProviderFields['here']>,
): Pick<PrometheusAuth, 'sigv4'> {
  const region = text('sigv4', v, 'region', false);
  const profile = text('sigv4', v, 'profile', false);
  if (v.roleArn !== undefined)
    f.out.push(
      diagnosticAt(
        at('sigv4', 'roleArn'),
        'sigv4 roleArn is not supported: assume the role in the workflow (aws-actions/configure-aws-credentials role-to-assume) and leave roleArn out',
      ),
    );
  if (!region && !profile && v.roleArn === undefined) return {};
  if (address !== undefined && !address.includes('aps-workspaces')) {
    f.out.push(
      diagnosticAt(
        at('sigv4'),
        'sigv4 is not used: as in Argo, requests are signed only for an Amazon Managed Prometheus address (aps-workspaces)',
        'warning',
      ),
    );
    return {};
  }
  return { sigv4: { ...(region ? { region } : {}), ...(profile ? { profile } : {}) } };
}
