import { diagnosticAt } from '../diagnostics';
import { isObject } from '../model/kube';
import { ProviderFields, textAt } from './provider-fields';
import { MetricAuth } from './types';

/**
 * Argo's `authentication` of the prometheus and web providers (one CRD type): `basicAuth`, `oauth2`
 * (client credentials) and `sigv4` (Amazon Managed Prometheus). Argo's web provider uses only oauth2:
 * basicAuth and sigv4 written there are warned at the field and not used, as in Argo. Secrets in them
 * come from secret args (`{{args.x}}`), filled when measuring. Pure.
 */
export function providerAuth(f: ProviderFields, address: string | undefined): MetricAuth | undefined {
  const raw = f.body.authentication;
  if (raw === undefined || raw === null) return undefined;
  const at = (...p: (string | number)[]) => f.here('authentication', ...p);
  if (!isObject(raw)) {
    f.out.push(diagnosticAt(at(), `${f.kind} authentication must be a map of basicAuth, oauth2 or sigv4`));
    return undefined;
  }
  const known = ['basicAuth', 'oauth2', 'sigv4'];
  for (const k of Object.keys(raw).filter((k) => !known.includes(k)))
    f.out.push(diagnosticAt(at(k), `${f.kind} authentication ${k} is not an Argo field; known: ${known.join(', ')}`));
  const part = (name: string, fields: readonly string[]): Readonly<Record<string, unknown>> | undefined => {
    const v = raw[name];
    if (v === undefined || v === null) return undefined;
    if (!isObject(v)) {
      f.out.push(diagnosticAt(at(name), `${f.kind} authentication.${name} must be a map`));
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
  if (f.kind === 'web') {
    for (const [name, v] of [
      ['basicAuth', basic],
      ['sigv4', sig],
    ] as const)
      if (v && Object.keys(v).length > 0) f.out.push(diagnosticAt(at(name), WEB_IGNORES(name), 'warning'));
    return oauth && oauth.tokenUrl ? { oauth2: oauth2(f, oauth, text) } : undefined;
  }
  const auth: MetricAuth = {
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

const WEB_IGNORES = (name: string) =>
  `web authentication.${name} is not used: Argo's web provider authenticates only with oauth2; send credentials in headers from a secret arg (e.g. Authorization: Basic {{args.token}})`;

type Text = (name: string, v: Readonly<Record<string, unknown>>, k: string, required: boolean) => string | undefined;

function oauth2(
  f: ProviderFields,
  v: Readonly<Record<string, unknown>>,
  text: Text,
): NonNullable<MetricAuth['oauth2']> {
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
 * `roleArn`: assumed through STS with the SDK's credentials when measuring, as Argo (Prometheus' sigv4 round tripper) does.
 * Argo signs with SigV4 only when the address is Amazon Managed Prometheus (`aps-workspaces`) and
 * ignores sigv4 elsewhere: rollgen does the same, and says so where sigv4 is written.
 */
function sigv4(
  f: ProviderFields,
  v: Readonly<Record<string, unknown>>,
  address: string | undefined,
  text: Text,
  at: (...p: (string | number)[]) => ReturnType<ProviderFields['here']>,
): Pick<MetricAuth, 'sigv4'> {
  const region = text('sigv4', v, 'region', false);
  const profile = text('sigv4', v, 'profile', false);
  const roleArn = text('sigv4', v, 'roleArn', false);
  if (roleArn !== undefined && !/^arn:[\w-]+:iam::\d{12}:role\/\S+$/.test(roleArn) && !roleArn.includes('{{args.'))
    f.out.push(
      diagnosticAt(
        at('sigv4', 'roleArn'),
        `sigv4 roleArn "${roleArn}" is not a role ARN such as arn:aws:iam::123456789012:role/amp-reader`,
      ),
    );
  if (!region && !profile && !roleArn) return {};
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
  return { sigv4: { ...(region ? { region } : {}), ...(profile ? { profile } : {}), ...(roleArn ? { roleArn } : {}) } };
}
