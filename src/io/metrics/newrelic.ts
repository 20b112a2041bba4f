import { Value } from '../../analysis/builtins';
import { NewRelicProvider } from '../../analysis/types';
import { request } from './http';
import { ProviderResult } from './prometheus';

const NERDGRAPH = { us: 'https://api.newrelic.com/graphql', eu: 'https://api.eu.newrelic.com/graphql' };

/** The query Argo sends (newrelic.go gqlNrqlQuery). */
const NRQL_QUERY = `query ($query: Nrql!, $accountId: Int!, $timeout: Seconds!) {
  actor { account(id: $accountId) { nrql(query: $query, timeout: $timeout) { results } } }
}`;

export interface NewRelicQuery {
  readonly spec: NewRelicProvider;
  readonly fill: (text: string) => string;
  readonly credentials: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/**
 * Argo's New Relic provider: NRQL through NerdGraph. One result row is the result (a map: `result.count`),
 * several are an array of maps; no row is an error.
 */
export async function queryNewRelic(q: NewRelicQuery): Promise<ProviderResult> {
  const c = q.credentials;
  const region = c.region ?? 'us';
  if (region !== 'us' && region !== 'eu' && !c['base-url-nerdgraph'])
    throw new Error(`New Relic region must be us or eu, not ${region}`);
  const url = c['base-url-nerdgraph'] ?? NERDGRAPH[region as 'us' | 'eu'];
  const accountId = Number(c['account-id']);
  if (!Number.isInteger(accountId)) throw new Error('could not parse account ID: it must be an integer');
  const res = await request({
    url,
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'API-Key': c['personal-api-key'] ?? '' },
    body: JSON.stringify({
      query: NRQL_QUERY,
      variables: { accountId, query: q.fill(q.spec.query), timeout: q.spec.nrqlTimeout },
    }),
    insecure: false,
    timeoutMs: q.timeoutMs,
    ...(q.signal ? { signal: q.signal } : {}),
  });
  if (res.status < 200 || res.status >= 300)
    throw new Error(`New Relic NerdGraph answered HTTP ${res.status}: ${res.body}`);
  let payload: { data?: { actor?: { account?: { nrql?: { results?: Value[] } } } }; errors?: { message?: string }[] };
  try {
    payload = JSON.parse(res.body);
  } catch {
    throw new Error(`New Relic NerdGraph answered HTTP ${res.status} with a body that is not JSON`);
  }
  if (payload.errors?.length) throw new Error(payload.errors.map((e) => e.message ?? 'unknown error').join('; '));
  const results = payload.data?.actor?.account?.nrql?.results ?? [];
  if (results.length === 0 || (results.length === 1 && isEmpty(results[0])))
    throw new Error('no results returned from NRQL query');
  const result = results.length === 1 ? results[0] : results;
  return { result, text: goJson(result) };
}

const isEmpty = (v: Value) => v === null || (typeof v === 'object' && Object.keys(v).length === 0);

/** JSON as Go marshals a map: keys sorted, as Argo prints the value. */
function goJson(v: Value): string {
  return JSON.stringify(v, (_k, x: Value) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, x[k]]),
        )
      : x,
  );
}
