import { Value } from '../../analysis/builtins';
import { request } from './http';
import { parseJsonPath, readPath } from '../../analysis/jsonpath';
import { formatJson } from '../../analysis/value-text';
import { ProviderResult } from './prometheus';
import type { OutgoingRequest } from './auth';

export interface WebQuery {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly jsonPath?: string;
  readonly insecure: boolean;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** The request's final headers: `authentication.oauth2` adds a Bearer token (src/io/metrics/auth.ts). */
  readonly authorize?: (req: OutgoingRequest) => Promise<Record<string, string>>;
}

/** Argo's web provider: a non-2xx answer is an error; a JSON body is read at jsonPath, any other body is the result as a string. */
export async function queryWeb(q: WebQuery): Promise<ProviderResult> {
  const outgoing = { url: q.url, method: q.method, headers: q.headers, body: q.body ?? '' };
  const res = await request({
    url: q.url,
    method: q.method,
    headers: q.authorize ? await q.authorize(outgoing) : q.headers,
    ...(q.body !== undefined ? { body: q.body } : {}),
    insecure: q.insecure,
    timeoutMs: q.timeoutMs,
    ...(q.signal ? { signal: q.signal } : {}),
  });
  if (res.status < 200 || res.status >= 300) throw new Error(`received non 2xx response code: ${res.status}`);
  let data: Value;
  try {
    data = JSON.parse(res.body) as Value;
  } catch {
    return { result: res.body, text: res.body };
  }
  if (q.jsonPath === undefined) return { result: data, text: formatJson(data) };
  const parsed = parseJsonPath(q.jsonPath);
  if ('error' in parsed) throw new Error(parsed.error);
  const value = readPath(data, parsed.path);
  return { result: value, text: formatJson(value) };
}
