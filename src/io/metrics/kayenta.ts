import { KayentaProvider, KayentaScopeDetail } from '../../analysis/types';
import { request } from './http';
import { ProviderResult } from './prometheus';

/** Argo polls a canary execution every 15 s until it is complete. */
const POLL_MS = 15_000;

export interface KayentaJudgement {
  readonly spec: KayentaProvider;
  readonly fill: (text: string) => string;
  readonly now: Date;
  /** The metric's interval (seconds): the window judged unless `lookback`. */
  readonly intervalSeconds?: number;
  /** When the analysis started: the window's start with `lookback`. */
  readonly analysisStartedAt?: string;
  readonly timeoutMs: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly signal?: AbortSignal;
}

/**
 * Argo's Kayenta provider: the canary config's id by name, a canary execution started over the
 * scopes, then polled until complete; its score against the thresholds is the phase (pass:
 * Successful, marginal: Inconclusive, below: Failed). Argo keeps the measurement Running between
 * polls; rollgen waits for the judgement within the measurement, up to its timeout (an Error after).
 */
export async function judgeKayenta(k: KayentaJudgement): Promise<ProviderResult> {
  const s = k.spec;
  const deadline = Date.now() + k.timeoutMs;
  const address = k.fill(s.address).replace(/\/+$/, '');
  const get = (url: string) => call(k, url, 'GET', deadline);
  const q = (v: string) => encodeURIComponent(k.fill(v));
  // As Argo looks it up: configurationAccountName is given the storage account's name.
  const configs = await get(
    `${address}/canaryConfig?application=${q(s.application)}&configurationAccountName=${q(s.storageAccountName)}`,
  );
  const config = (Array.isArray(configs) ? configs : []).find(
    (c: { name?: string }) => c?.name === k.fill(s.canaryConfigName),
  );
  if (!config) throw new Error('Canary config not found');
  const started = await call(
    k,
    `${address}/canary/${encodeURIComponent(String(config.id))}?application=${q(s.application)}&metricsAccountName=${q(s.metricsAccountName)}&configurationAccountName=${q(s.configurationAccountName)}&storageAccountName=${q(s.storageAccountName)}`,
    'POST',
    deadline,
    JSON.stringify({ scopes: scopesOf(k), thresholds: s.threshold }),
  );
  const id = (started as { canaryExecutionId?: unknown })?.canaryExecutionId;
  if (typeof id !== 'string' || id === '') throw new Error('Invalid canaryExecutionId');
  for (let waited = 0; ; waited += POLL_MS) {
    const execution = (await get(`${address}/canary/${encodeURIComponent(id)}`)) as {
      complete?: unknown;
      result?: { judgeResult?: { score?: { score?: unknown } } };
    };
    if (typeof execution?.complete !== 'boolean') throw new Error('Missing Complete Status');
    if (execution.complete) return verdictOf(execution.result?.judgeResult?.score?.score, s.threshold);
    if (waited + POLL_MS > k.timeoutMs || Date.now() + POLL_MS > deadline)
      throw new Error(`canary execution ${id} not complete within ${k.timeoutMs / 1000}s`);
    await k.sleep(POLL_MS);
  }
}

function verdictOf(raw: unknown, t: KayentaProvider['threshold']): ProviderResult {
  if (typeof raw !== 'number') throw new Error('Missing Score');
  const score = Math.trunc(raw);
  const phase = score >= t.pass ? 'Successful' : score >= t.marginal ? 'Inconclusive' : 'Failed';
  return { result: score, text: String(score), phase };
}

/** Scopes with Argo's default window: [now - interval (or the analysis start with lookback), now]. */
function scopesOf(k: KayentaJudgement): Record<string, unknown> {
  const end = rfc3339(k.now);
  const start = k.spec.lookback
    ? rfc3339(new Date(k.analysisStartedAt ?? k.now.toISOString()))
    : rfc3339(new Date(k.now.getTime() - (k.intervalSeconds ?? 0) * 1000));
  const detail = (d: KayentaScopeDetail) => ({
    scope: k.fill(d.scope),
    location: k.fill(d.region),
    step: d.step,
    start: d.start !== undefined ? k.fill(d.start) : start,
    end: d.end !== undefined ? k.fill(d.end) : end,
  });
  return Object.fromEntries(
    k.spec.scopes.map((s) => [s.name, { controlScope: detail(s.control), experimentScope: detail(s.experiment) }]),
  );
}

const rfc3339 = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

async function call(
  k: KayentaJudgement,
  url: string,
  method: string,
  deadline: number,
  body?: string,
): Promise<unknown> {
  const res = await request({
    url,
    method,
    headers: body !== undefined ? { 'Content-Type': 'application/json' } : {},
    ...(body !== undefined ? { body } : {}),
    insecure: false,
    timeoutMs: Math.max(1, Math.min(15_000, deadline - Date.now())),
    ...(k.signal ? { signal: k.signal } : {}),
  });
  if (res.status !== 200) throw new Error(`Invalid Response: HTTP ${res.status}`);
  try {
    return JSON.parse(res.body);
  } catch {
    throw new Error(`Kayenta answered a body that is not JSON`);
  }
}
