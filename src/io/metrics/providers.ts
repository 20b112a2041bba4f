import type { MeasureOptions } from './measure';
import { queryPrometheus, ProviderResult } from './prometheus';
import { queryWeb } from './web';
import { queryDatadog } from './datadog';
import { queryNewRelic } from './newrelic';
import { queryCloudWatch } from './cloudwatch';
import { queryInfluxDb } from './influxdb';
import { queryGraphite } from './graphite';
import { querySkyWalking } from './skywalking';
import { queryWavefront } from './wavefront';
import { judgeKayenta } from './kayenta';
import { credentialValues, readCredentials } from './credentials';
import { OutgoingRequest, authorize } from './auth';
import { Header, PrometheusRange, ProviderSpec, SecretArg } from '../../analysis/types';
import { timeAt } from '../../analysis/time-expression';

/** Where each provider is measured: one module per provider (src/io/metrics/<provider>.ts). */

type Env = Readonly<Record<string, string | undefined>>;

/** The provider's own credentials: its Secret's keys, or for CloudWatch the AWS SDK's secret variables. */
export function providerSecrets(p: ProviderSpec, env: Env): string[] {
  if ('credentials' in p) return credentialValues(p.credentials, env);
  if (p.kind === 'cloudwatch' || (p.kind === 'prometheus' && p.authentication?.sigv4))
    return [env.AWS_SECRET_ACCESS_KEY, env.AWS_SESSION_TOKEN].filter((v): v is string => !!v);
  return [];
}

export async function query(
  p: ProviderSpec,
  options: MeasureOptions,
  /** The metric's interval (seconds): Kayenta judges that window. */
  intervalSeconds?: number,
): Promise<ProviderResult> {
  const env = options.env ?? process.env;
  const fill = secretFiller(p.secretArgs, env);
  const timeoutMs = options.timeoutMs ?? p.timeoutSeconds * 1000;
  const signal = options.signal ? { signal: options.signal } : {};
  const now = (options.now ?? (() => new Date()))();
  if (p.kind === 'datadog')
    return queryDatadog({ spec: p, fill, credentials: readCredentials(p.credentials, env), now, timeoutMs, ...signal });
  if (p.kind === 'newrelic')
    return queryNewRelic({ spec: p, fill, credentials: readCredentials(p.credentials, env), timeoutMs, ...signal });
  if (p.kind === 'kayenta') {
    const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const lookback = options.analysisStartedAt ? { analysisStartedAt: options.analysisStartedAt } : {};
    const interval = intervalSeconds !== undefined ? { intervalSeconds } : {};
    return judgeKayenta({ spec: p, fill, now, timeoutMs, sleep, ...interval, ...lookback, ...signal });
  }
  if (p.kind === 'graphite') return queryGraphite(p, fill, timeoutMs, options.signal);
  if (p.kind === 'skywalking') return querySkyWalking(p, fill, now, timeoutMs, options.signal);
  if (p.kind === 'wavefront') {
    const token = readCredentials(p.credentials, env)[p.address] ?? '';
    return queryWavefront({ spec: p, fill, token, now, timeoutMs, ...signal });
  }
  if (p.kind === 'influxdb')
    return queryInfluxDb({ spec: p, fill, credentials: readCredentials(p.credentials, env), timeoutMs });
  if (p.kind === 'cloudwatch') return queryCloudWatch({ spec: p, fill, now, timeoutMs, env, ...signal });
  const auth = p.authentication;
  const ctx = { fill, env, insecure: p.insecure, timeoutMs, ...signal };
  const common = {
    headers: headers(p.headers, fill),
    insecure: p.insecure,
    timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(auth ? { authorize: (req: OutgoingRequest) => authorize(req, auth, ctx) } : {}),
  };
  if (p.kind === 'prometheus')
    return queryPrometheus({
      ...common,
      address: fill(p.address),
      query: fill(p.query),
      ...(p.rangeQuery ? { range: rangeAt(p.rangeQuery, now) } : {}),
    });
  return queryWeb({
    ...common,
    url: fill(p.url),
    method: p.method,
    ...(p.body !== undefined ? { body: fill(p.body) } : {}),
    ...(p.jsonPath !== undefined ? { jsonPath: p.jsonPath } : {}),
  });
}

/** Argo evaluates rangeQuery's start and end when it measures: against the measurement's clock. */
function rangeAt(r: PrometheusRange, now: Date) {
  return { start: new Date(timeAt(r.start, now)), end: new Date(timeAt(r.end, now)), stepSeconds: r.stepSeconds };
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
