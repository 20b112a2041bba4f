import { Diagnostic, Origin, diagnosticAt } from '../diagnostics';
import { isObject } from '../model/kube';
import { ResolvedArgs, unresolvedArg } from './args';
import { parseJsonPath } from './jsonpath';
import { Located, originOf } from '../model/analysis-request';
import { Header, PrometheusRange, ProviderSpec } from './types';
import { MetricSecrets } from './credentials';
import { ProviderFields } from './provider-fields';
import { datadogProvider } from './provider-datadog';
import { newRelicProvider } from './provider-newrelic';
import { cloudWatchProvider } from './provider-cloudwatch';
import { influxDbProvider } from './provider-influxdb';
import { kayentaProvider } from './provider-kayenta';
import { graphiteProvider, skyWalkingProvider, wavefrontProvider } from './provider-plain';
import { providerAuth } from './provider-auth';
import { prometheusRange } from './provider-prometheus-range';

/** Argo's metric providers rollgen measures, by their key in `provider`. */
export const SUPPORTED_PROVIDERS = [
  'prometheus',
  'web',
  'datadog',
  'newRelic',
  'cloudWatch',
  'influxdb',
  'graphite',
  'wavefront',
  'skywalking',
  'kayenta',
] as const;

/** Why an Argo provider rollgen knows is not measured. */
const WHY_NOT: Readonly<Record<string, string>> = {
  plugin: ' (rollgen runs no metric plugin binaries)',
};

/** Providers read by a module of their own (src/analysis/provider-<name>.ts). */
const OWN_MODULE: Readonly<Record<string, (f: ProviderFields) => ProviderSpec>> = {
  datadog: datadogProvider,
  newRelic: newRelicProvider,
  cloudWatch: cloudWatchProvider,
  influxdb: influxDbProvider,
  graphite: graphiteProvider,
  wavefront: wavefrontProvider,
  skywalking: skyWalkingProvider,
  kayenta: kayentaProvider,
};

const PROMETHEUS_FIELDS = new Set([
  'address',
  'query',
  'timeout',
  'headers',
  'insecure',
  'authentication',
  'rangeQuery',
]);
const WEB_FIELDS = new Set([
  'url',
  'method',
  'headers',
  'body',
  'jsonBody',
  'jsonPath',
  'timeoutSeconds',
  'insecure',
  'authentication',
]);

type Fill = (text: string) => string;

/** A metric's `provider` -> ProviderSpec; a provider rollgen cannot measure is refused here, at plan time. */
export function buildProvider(
  raw: unknown,
  at: Located,
  fill: Fill,
  args: ResolvedArgs,
  out: Diagnostic[],
  secrets?: MetricSecrets,
): ProviderSpec | undefined {
  const p = isObject(raw) ? raw : {};
  const kinds = Object.keys(p);
  const here = (...f: (string | number)[]) => originOf(at, 'provider', ...f);
  if (kinds.length !== 1) {
    out.push(
      diagnosticAt(
        here(),
        `a metric needs exactly one provider (${SUPPORTED_PROVIDERS.join(', ')}); found ${kinds.length}`,
      ),
    );
    return undefined;
  }
  const kind = kinds[0];
  const body = isObject(p[kind]) ? p[kind] : {};
  const before = out.length;
  const own = OWN_MODULE[kind];
  if (own) {
    const spec = own({ kind, body, here: (...f) => here(kind, ...f), fill, args, secrets, out });
    return out.slice(before).some((d) => d.severity === 'error') ? undefined : spec;
  }
  if (kind !== 'prometheus' && kind !== 'web') {
    out.push(
      diagnosticAt(
        here(),
        `metric provider ${kind} is not supported${WHY_NOT[kind] ?? ''}: rollgen measures with ${SUPPORTED_PROVIDERS.join(', ')}; query the same data through one of them`,
      ),
    );
    return undefined;
  }
  const text = (field: string, required: boolean): string | undefined => {
    const v = body[field];
    if (v === undefined || v === null || v === '') {
      if (required) out.push(diagnosticAt(here(kind), `${kind} provider needs ${field}`));
      return undefined;
    }
    const filled = fill(typeof v === 'string' ? v : String(v));
    const leftover = unresolvedArg(filled, args);
    if (leftover)
      out.push(diagnosticAt(here(kind, field), `${field} uses {{args.${leftover}}}, which no template declares`));
    return filled;
  };
  const known = kind === 'prometheus' ? PROMETHEUS_FIELDS : WEB_FIELDS;
  for (const k of Object.keys(body).filter((k) => !known.has(k)))
    out.push(diagnosticAt(here(kind, k), `${kind} field ${k} is not supported by rollgen`));
  const headers = readHeaders(body.headers, here(kind, 'headers'), fill, args, out);
  const common = { headers, insecure: body.insecure === true, secretArgs: args.secrets };
  const fields: ProviderFields = { kind, body, here: (...f) => here(kind, ...f), fill, args, secrets, out };
  const spec: ProviderSpec | undefined =
    kind === 'prometheus'
      ? {
          ...prometheus(text, body, common, here(kind, 'timeout'), out),
          ...authOf(fields, body.address),
          ...rangeOf(fields),
        }
      : { ...web(text, body, common, (...f) => here(kind, ...f), fill, out), ...authOf(fields, body.url) };
  return out.slice(before).some((d) => d.severity === 'error') ? undefined : spec;
}

type Common = Pick<Extract<ProviderSpec, { kind: 'web' }>, 'headers' | 'insecure' | 'secretArgs'>;
type Text = (field: string, required: boolean) => string | undefined;

function prometheus(
  text: Text,
  body: Record<string, unknown>,
  common: Common,
  at: Origin,
  out: Diagnostic[],
): ProviderSpec {
  const timeout = body.timeout === undefined ? 30 : Number(body.timeout);
  if (!Number.isInteger(timeout) || timeout < 0)
    out.push(diagnosticAt(at, 'prometheus timeout must be a non-negative integer (seconds)'));
  return {
    kind: 'prometheus',
    address: text('address', true) ?? '',
    query: text('query', true) ?? '',
    timeoutSeconds: timeout || 30,
    ...common,
  };
}

function web(
  text: Text,
  body: Record<string, unknown>,
  common: Common,
  here: (...f: string[]) => Origin,
  fill: Fill,
  out: Diagnostic[],
): ProviderSpec {
  const method = String(body.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'POST' && method !== 'PUT')
    out.push(diagnosticAt(here('method'), 'web method must be GET, POST or PUT'));
  const jsonBody = body.jsonBody !== undefined ? fill(JSON.stringify(body.jsonBody)) : undefined;
  const payload = text('body', false) ?? jsonBody;
  if (body.body !== undefined && body.jsonBody !== undefined)
    out.push(diagnosticAt(here('jsonBody'), 'use either body or jsonBody, not both'));
  if (payload !== undefined && method === 'GET')
    out.push(diagnosticAt(here('method'), 'a web body needs method POST or PUT'));
  const jsonPath = text('jsonPath', false);
  if (jsonPath !== undefined) {
    const parsed = parseJsonPath(jsonPath);
    if ('error' in parsed) out.push(diagnosticAt(here('jsonPath'), parsed.error));
  }
  const timeout = body.timeoutSeconds === undefined ? 10 : Number(body.timeoutSeconds);
  if (!Number.isInteger(timeout) || timeout <= 0)
    out.push(diagnosticAt(here('timeoutSeconds'), 'web timeoutSeconds must be a positive integer'));
  const headers: Header[] =
    jsonBody !== undefined
      ? [...common.headers, { key: 'Content-Type', value: 'application/json' }]
      : [...common.headers];
  return {
    kind: 'web',
    url: text('url', true) ?? '',
    method: method as 'GET' | 'POST' | 'PUT',
    ...common,
    headers,
    ...(payload !== undefined ? { body: payload } : {}),
    ...(jsonPath !== undefined ? { jsonPath } : {}),
    timeoutSeconds: timeout,
  };
}

function readHeaders(v: unknown, at: Origin, fill: Fill, args: ResolvedArgs, out: Diagnostic[]): Header[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every((h) => isObject(h) && typeof h.key === 'string')) {
    out.push(diagnosticAt(at, 'headers must be a list of {key, value}'));
    return [];
  }
  return v.map((h) => {
    const value = fill(String((h as Record<string, unknown>).value ?? ''));
    const leftover = unresolvedArg(value, args);
    if (leftover)
      out.push(diagnosticAt(at, `header ${String(h.key)} uses {{args.${leftover}}}, which no template declares`));
    return { key: String(h.key), value };
  });
}

function rangeOf(f: ProviderFields): { rangeQuery?: PrometheusRange } {
  const rangeQuery = prometheusRange(f);
  return rangeQuery ? { rangeQuery } : {};
}

function authOf(f: ProviderFields, address: unknown): { authentication?: ReturnType<typeof providerAuth> } {
  const authentication = providerAuth(f, typeof address === 'string' ? f.fill(address) : undefined);
  return authentication ? { authentication } : {};
}
