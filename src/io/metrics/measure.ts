import { assess } from '../../analysis/conditions';
import { providerSecrets, query } from './providers';
import { Measurement, MetricSpec, SecretArg } from '../../analysis/types';

export { secretFiller } from './providers';

export interface MeasureOptions {
  readonly signal?: AbortSignal;
  /** Overrides the provider's own timeout. */
  readonly timeoutMs?: number;
  /** Where secret args are read (default process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The clock (default: the system's). */
  readonly now?: () => Date;
  /** How a provider that polls (Kayenta) waits between polls (default: a timer). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** When the analysis started (ISO): Kayenta's `lookback` window starts there. */
  readonly analysisStartedAt?: string;
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
    const { result, text, phase: judged } = await query(metric.provider, options, metric.interval);
    const { phase, message } = judged ? { phase: judged, message: undefined } : assess(metric, result);
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
