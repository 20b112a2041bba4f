import { assess } from '../../analysis/conditions';
import { queryPrometheus, ProviderResult } from './prometheus';
import { queryWeb } from './web';
import { queryDatadog } from './datadog';
import { queryNewRelic } from './newrelic';
import { queryCloudWatch } from './cloudwatch';
import { queryInfluxDb } from './influxdb';
import { credentialValues, readCredentials } from './credentials';
import { OutgoingRequest, authorize } from './prometheus-auth';
import { Header, Measurement, MetricSpec, ProviderSpec, SecretArg } from '../../analysis/types';

export interface MeasureOptions {
  readonly signal?: AbortSignal;
  /** Overrides the provider's own timeout. */
  readonly timeoutMs?: number;
  /** Where secret args are read (default process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The clock (default: the system's). */
  readonly now?: () => Date;
}

/**
 * Takes one measurement of `metric` now (the edge: network and clock). Never throws: a provider that
 * cannot be reached, an answer that cannot be read, or a condition that cannot be evaluated is an
 * `Error` measurement with the reason, as in Argo (its consecutiveErrorLimit then decides).
 */
export async function measure(metric: MetricSpec, options: MeasureOptions = {}): Promise<Measurement> {
  const now = options.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const env = options.env ?? process.env;
  const redact = redactor([...secretValues(metric.provider.secretArgs, env), ...providerSecrets(metric.provider, env)]);
  try {
    const { result, text } = await query(metric.provider, options);
    const { phase, message } = assess(metric, result);
    return {
      startedAt,
      finishedAt: now().toISOString(),
      phase,
      value: redact(text),
      ...(message ? { message: redact(message) } : {}),
    };
  } catch (e) {
    return { startedAt, finishedAt: now().toISOString(), phase: 'Error', message: redact((e as Error).message) };
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** Secret values never reach a record (which is posted on GitHub): replaced by ***** as Argo does in its messages. */
function redactor(values: readonly string[]) {
  return (text: string): string => values.reduce((t, v) => t.split(v).join('*****'), text);
}

const secretValues = (secrets: readonly SecretArg[], env: Env): string[] =>
  secrets.map((s) => env[s.env]).filter((v): v is string => v !== undefined && v !== '');

/** The provider's own credentials: its Secret's keys, or for CloudWatch the AWS SDK's secret variables. */
function providerSecrets(p: ProviderSpec, env: Env): string[] {
  if (p.kind === 'datadog' || p.kind === 'newrelic' || p.kind === 'influxdb')
    return credentialValues(p.credentials, env);
  if (p.kind === 'cloudwatch' || (p.kind === 'prometheus' && p.authentication?.sigv4))
    return [env.AWS_SECRET_ACCESS_KEY, env.AWS_SESSION_TOKEN].filter((v): v is string => !!v);
  return [];
}

async function query(p: ProviderSpec, options: MeasureOptions): Promise<ProviderResult> {
  const env = options.env ?? process.env;
  const fill = secretFiller(p.secretArgs, env);
  const timeoutMs = options.timeoutMs ?? p.timeoutSeconds * 1000;
  const signal = options.signal ? { signal: options.signal } : {};
  const now = (options.now ?? (() => new Date()))();
  if (p.kind === 'datadog')
    return queryDatadog({ spec: p, fill, credentials: readCredentials(p.credentials, env), now, timeoutMs, ...signal });
  if (p.kind === 'newrelic')
    return queryNewRelic({ spec: p, fill, credentials: readCredentials(p.credentials, env), timeoutMs, ...signal });
  if (p.kind === 'influxdb')
    return queryInfluxDb({ spec: p, fill, credentials: readCredentials(p.credentials, env), timeoutMs });
  if (p.kind === 'cloudwatch') return queryCloudWatch({ spec: p, fill, now, timeoutMs, env, ...signal });
  const common = {
    headers: headers(p.headers, fill),
    insecure: p.insecure,
    timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  if (p.kind === 'prometheus') {
    const auth = p.authentication;
    const ctx = { fill, env, insecure: p.insecure, timeoutMs, ...signal };
    return queryPrometheus({
      ...common,
      address: fill(p.address),
      query: fill(p.query),
      ...(auth ? { authorize: (req: OutgoingRequest) => authorize(req, auth, ctx) } : {}),
    });
  }
  return queryWeb({
    ...common,
    url: fill(p.url),
    method: p.method,
    ...(p.body !== undefined ? { body: fill(p.body) } : {}),
    ...(p.jsonPath !== undefined ? { jsonPath: p.jsonPath } : {}),
  });
}

function headers(list: readonly Header[], fill: (s: string) => string): Record<string, string> {
  return Object.fromEntries(list.map((h) => [h.key, fill(h.value)]));
}

/** `{{args.NAME}}` of a secret arg -> the value of its environment variable; a missing one fails the measurement. */
export function secretFiller(secrets: readonly SecretArg[], env: Readonly<Record<string, string | undefined>>) {
  return (s: string): string =>
    secrets.reduce((text, a) => {
      const re = new RegExp(`\\{\\{\\s*args\\.${a.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\}\\}`, 'g');
      if (!re.test(text)) return text;
      const value = env[a.env];
      if (value === undefined) throw new Error(`secret arg "${a.name}" needs the environment variable ${a.env}`);
      return text.replace(re, () => value);
    }, s);
}
