import { diagnosticAt } from '../diagnostics';
import { isObject } from '../model/kube';
import { credentialsOf } from './credentials';
import { ProviderFields, durationField, refuseUnknown, textAt, textField } from './provider-fields';
import { DatadogProvider } from './types';

const FIELDS = ['query', 'queries', 'formula', 'aggregator', 'apiVersion', 'interval', 'requestTimeout', 'secretRef'];
const AGGREGATORS = ['avg', 'min', 'max', 'sum', 'last', 'percentile', 'mean', 'l2norm', 'area'];

/** Argo's `provider.datadog` with Argo's checks (validateIncomingProps); credentials as Argo finds them. Pure. */
export function datadogProvider(f: ProviderFields): DatadogProvider {
  refuseUnknown(f, FIELDS);
  const apiVersion = textField(f, 'apiVersion', false) ?? 'v1';
  if (apiVersion !== 'v1' && apiVersion !== 'v2')
    f.out.push(diagnosticAt(f.here('apiVersion'), `datadog apiVersion must be v1 or v2, not ${apiVersion}`));
  const query = textField(f, 'query', false);
  const queries = queriesOf(f);
  const formula = textField(f, 'formula', false);
  const aggregator = textField(f, 'aggregator', false);
  const problem = (field: string, message: string) =>
    f.out.push(diagnosticAt(field ? f.here(field) : f.here(), message));
  if (query === undefined && queries === undefined) problem('', 'datadog provider needs query or queries');
  if (query !== undefined && queries !== undefined) problem('queries', 'datadog takes query or queries, not both');
  if (apiVersion === 'v1' && queries !== undefined)
    problem('queries', 'datadog apiVersion v1 takes only query; queries and formula need apiVersion: v2');
  if (formula !== undefined && queries === undefined) problem('formula', 'datadog formula needs queries to combine');
  if (formula === undefined && queries && Object.keys(queries).length > 1)
    problem('queries', 'datadog queries with more than one query need a formula: which column to read is ambiguous');
  if (aggregator !== undefined && apiVersion === 'v1')
    problem('aggregator', 'datadog aggregator needs apiVersion: v2 (v1 has none)');
  if (aggregator !== undefined && !AGGREGATORS.includes(aggregator))
    problem('aggregator', `datadog aggregator must be one of ${AGGREGATORS.join(', ')}`);
  const secretName = secretRefName(f);
  const fromEnvFirst = secretName === undefined;
  const secret = secretName ?? 'datadog';
  const key = (k: string, required: boolean, isSecret: boolean) => ({
    key: k,
    required,
    secret: isSecret,
    // Without secretRef, Argo reads DD_API_KEY, DD_APP_KEY and DD_ADDRESS before its `datadog` Secret.
    ...(fromEnvFirst ? { before: [`DD_${k.toUpperCase().replace(/-/g, '_')}`] } : {}),
  });
  return {
    kind: 'datadog',
    apiVersion: apiVersion === 'v2' ? 'v2' : 'v1',
    ...(query !== undefined ? { query } : {}),
    ...(queries !== undefined ? { queries } : {}),
    ...(formula !== undefined ? { formula } : {}),
    ...(aggregator !== undefined ? { aggregator } : {}),
    intervalSeconds: durationField(f, 'interval', 300),
    timeoutSeconds: durationField(f, 'requestTimeout', 10),
    credentials: credentialsOf(
      secret,
      [key('api-key', true, true), key('app-key', true, true), key('address', false, false)],
      f.secrets,
    ),
    secretArgs: f.args.secrets,
  };
}

function queriesOf(f: ProviderFields): Readonly<Record<string, string>> | undefined {
  const v = f.body.queries;
  if (v === undefined || v === null) return undefined;
  if (!isObject(v) || Object.keys(v).length === 0) {
    f.out.push(diagnosticAt(f.here('queries'), 'datadog queries must map names to queries, e.g. {a: "sum:..."}'));
    return undefined;
  }
  return Object.fromEntries(Object.entries(v).map(([name, q]) => [name, textAt(f, q, ['queries', name], true) ?? '']));
}

/** `secretRef.name`: the Secret with this metric's keys (Argo reads it in the controller's, or the Rollout's, namespace). */
function secretRefName(f: ProviderFields): string | undefined {
  const ref = f.body.secretRef;
  if (ref === undefined) return undefined;
  if (!isObject(ref)) {
    f.out.push(diagnosticAt(f.here('secretRef'), 'datadog secretRef must be {name, namespaced}'));
    return undefined;
  }
  for (const k of Object.keys(ref).filter((k) => k !== 'name' && k !== 'namespaced'))
    f.out.push(diagnosticAt(f.here('secretRef', k), `datadog secretRef field ${k} is not an Argo field`));
  const name = typeof ref.name === 'string' && ref.name !== '' ? ref.name : undefined;
  if (ref.namespaced === true && name === undefined)
    f.out.push(diagnosticAt(f.here('secretRef'), 'datadog secretRef.namespaced needs secretRef.name'));
  return name;
}
