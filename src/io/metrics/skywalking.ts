import { Value } from '../../analysis/builtins';
import { SkyWalkingProvider } from '../../analysis/types';
import { request } from './http';
import { ProviderResult } from './prometheus';

/** SkyWalking's Duration as Argo writes it: minutes, `2006-01-02 1504` (UTC here). */
const minute = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ').replace(':', '');

/**
 * Argo's SkyWalking provider: the GraphQL `query` posted to `<address>/graphql` with `$duration`
 * set to the last `interval`, step MINUTE; the response's `data` is the result.
 */
export async function querySkyWalking(
  spec: SkyWalkingProvider,
  fill: (text: string) => string,
  now: Date,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ProviderResult> {
  const duration = {
    start: minute(new Date(now.getTime() - spec.intervalSeconds * 1000)),
    end: minute(now),
    step: 'MINUTE',
  };
  const res = await request({
    url: `${fill(spec.address).replace(/\/+$/, '')}/graphql`,
    method: 'POST',
    headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json; charset=utf-8' },
    body: JSON.stringify({ query: fill(spec.query), variables: { duration } }),
    insecure: false,
    timeoutMs,
    ...(signal ? { signal } : {}),
  });
  let payload: { data?: Value; errors?: { message?: string }[] };
  try {
    payload = JSON.parse(res.body);
  } catch {
    throw new Error(`SkyWalking answered HTTP ${res.status} with a body that is not JSON`);
  }
  if (payload.errors?.length) throw new Error(`graphql: ${payload.errors.map((e) => e.message).join('; ')}`);
  if (res.status < 200 || res.status >= 300) throw new Error(`SkyWalking answered HTTP ${res.status}`);
  if (payload.data === undefined || payload.data === null) throw new Error('no results returned from SkyWalking query');
  return { result: payload.data, text: JSON.stringify(payload.data) };
}
