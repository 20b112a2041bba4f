import { createHash, createHmac } from 'crypto';
import { MetricAuth } from '../../analysis/types';
import { request } from './http';

type Env = Readonly<Record<string, string | undefined>>;

export interface OutgoingRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface AuthContext {
  readonly fill: (text: string) => string;
  readonly env: Env;
  readonly insecure: boolean;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/**
 * The headers of `req` with Argo's authentication applied, in Argo's order: basic auth, then a
 * SigV4 signature (Amazon Managed Prometheus), then an OAuth2 client-credentials Bearer token
 * (the one a web provider uses).
 */
export async function authorize(
  req: OutgoingRequest,
  auth: MetricAuth,
  ctx: AuthContext,
): Promise<Record<string, string>> {
  let headers: Record<string, string> = { ...req.headers };
  if (auth.basic) {
    const pair = `${ctx.fill(auth.basic.username)}:${ctx.fill(auth.basic.password)}`;
    headers = withAuthorization(headers, `Basic ${Buffer.from(pair).toString('base64')}`);
  }
  if (auth.sigv4) headers = await sign({ ...req, headers }, auth.sigv4, ctx);
  if (auth.oauth2) headers = withAuthorization(headers, `Bearer ${await clientCredentialsToken(auth.oauth2, ctx)}`);
  return headers;
}

/** One Authorization header: a header written as `authorization` is replaced, not sent beside it. */
function withAuthorization(headers: Record<string, string>, value: string): Record<string, string> {
  const rest = Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'authorization');
  return { ...Object.fromEntries(rest), Authorization: value };
}

/** RFC 6749 4.4 as golang.org/x/oauth2/clientcredentials sends it: id and secret in Basic auth, form-encoded. */
async function clientCredentialsToken(o: NonNullable<MetricAuth['oauth2']>, ctx: AuthContext): Promise<string> {
  const id = encodeURIComponent(ctx.fill(o.clientId));
  const secret = encodeURIComponent(ctx.fill(o.clientSecret));
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (o.scopes.length > 0) form.set('scope', o.scopes.map(ctx.fill).join(' '));
  const res = await request({
    url: ctx.fill(o.tokenUrl),
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'application/json',
    },
    body: form.toString(),
    insecure: ctx.insecure,
    timeoutMs: ctx.timeoutMs,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  let token: { access_token?: unknown; error?: unknown; error_description?: unknown } = {};
  try {
    token = JSON.parse(res.body);
  } catch {
    // Reported below with the status.
  }
  if (res.status < 200 || res.status >= 300 || typeof token.access_token !== 'string' || token.access_token === '')
    throw new Error(
      `oauth2: cannot fetch token from ${o.tokenUrl}: HTTP ${res.status}${token.error ? ` ${String(token.error)}` : ''}${token.error_description ? `: ${String(token.error_description)}` : ''}`,
    );
  return token.access_token;
}

/** Node's crypto as the SigV4 signer's hash: SHA-256, or HMAC-SHA-256 with a key. */
class Sha256 {
  private readonly hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

const bytes = (d: string | ArrayBuffer | ArrayBufferView): string | Uint8Array =>
  typeof d === 'string'
    ? d
    : d instanceof ArrayBuffer
      ? new Uint8Array(d)
      : new Uint8Array(d.buffer, d.byteOffset, d.byteLength);

/** Signs for service `aps` with the AWS SDK's credentials (keys in the environment, else its chain with `profile`). */
async function sign(
  req: OutgoingRequest,
  s: NonNullable<MetricAuth['sigv4']>,
  ctx: AuthContext,
): Promise<Record<string, string>> {
  const region = (s.region && ctx.fill(s.region)) || ctx.env.AWS_REGION || ctx.env.AWS_DEFAULT_REGION;
  if (!region) throw new Error('sigv4 needs a region: write sigv4.region or set AWS_REGION');
  const { SignatureV4 } = awsSigning();
  const base = baseCredentials(s, ctx);
  const credentials = s.roleArn ? await assumeRole(ctx.fill(s.roleArn), region, base, ctx) : base;
  const url = new URL(req.url);
  const signer = new SignatureV4({ service: 'aps', region, credentials, sha256: Sha256 });
  const signed = await signer.sign({
    method: req.method,
    protocol: url.protocol,
    hostname: url.hostname,
    ...(url.port ? { port: Number(url.port) } : {}),
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: { ...req.headers, host: url.host },
    body: req.body,
  });
  return signed.headers as Record<string, string>;
}

type Credentials =
  | import('@smithy/types').AwsCredentialIdentity
  | import('@smithy/types').AwsCredentialIdentityProvider;

/** Keys in the environment, else the SDK's standard chain (web identity, profiles, ...) with `profile`. */
function baseCredentials(s: NonNullable<MetricAuth['sigv4']>, ctx: AuthContext): Credentials {
  const env = ctx.env;
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY && !s.profile)
    return {
      accessKeyId: env.AWS_ACCESS_KEY_ID,
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
      ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
    };
  return awsSigning().defaultProvider(s.profile ? { profile: ctx.fill(s.profile) } : {});
}

/**
 * STS AssumeRole with the base credentials, as Argo's signer (Prometheus' sigv4 round tripper) does:
 * the query is signed with the role's temporary credentials. `AWS_ENDPOINT_URL_STS` overrides the endpoint.
 */
async function assumeRole(roleArn: string, region: string, base: Credentials, ctx: AuthContext): Promise<Credentials> {
  const endpoint = ctx.env.AWS_ENDPOINT_URL_STS ?? ctx.env.AWS_ENDPOINT_URL;
  const role = awsSigning().fromTemporaryCredentials({
    params: { RoleArn: roleArn, RoleSessionName: `rollgen-${Date.now()}` },
    masterCredentials: base,
    clientConfig: { region, maxAttempts: 1, ...(endpoint ? { endpoint } : {}) },
  });
  try {
    // Resolved here, not by the signer, so a refusal names the role.
    return await role();
  } catch (e) {
    throw new Error(`sigv4: cannot assume role ${roleArn}: ${(e as Error).message}`);
  }
}

/**
 * The AWS signer, credential chain and role provider, required on the first signed request
 * (dist/vendor/aws.js): never at start-up.
 */
function awsSigning(): typeof import('@smithy/signature-v4') &
  typeof import('@aws-sdk/credential-provider-node') &
  Pick<typeof import('@aws-sdk/credential-providers'), 'fromTemporaryCredentials'> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const roles = require('@aws-sdk/credential-providers') as typeof import('@aws-sdk/credential-providers');
  return {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    ...(require('@smithy/signature-v4') as typeof import('@smithy/signature-v4')),
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    ...(require('@aws-sdk/credential-provider-node') as typeof import('@aws-sdk/credential-provider-node')),
    fromTemporaryCredentials: roles.fromTemporaryCredentials,
  };
}
