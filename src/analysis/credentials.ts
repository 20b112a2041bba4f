import { CredentialKey, Credentials } from './types';

/**
 * rollgen.yaml `metricSecrets`: for each Kubernetes Secret an Argo metric provider reads, its keys ->
 * the environment variable (a CI secret) that holds the value instead. rollgen reads no Secret.
 */
export type MetricSecrets = Readonly<Record<string, Readonly<Record<string, string>>>>;

const envPart = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/** The variable read for a Secret's key that `metricSecrets` does not name: ROLLGEN_SECRET_<SECRET>_<KEY>. */
export const secretKeyEnv = (secret: string, key: string): string =>
  `ROLLGEN_SECRET_${envPart(secret)}_${envPart(key)}`;

export interface KeyNeed {
  readonly key: string;
  readonly required: boolean;
  /** false for an address or a region: shown as written. */
  readonly secret: boolean;
  /** Variables read before the Secret's (Argo's Datadog provider reads DD_API_KEY first). */
  readonly before?: readonly string[];
}

/** Where each key of `secret` is read at measurement time. Pure. */
export function credentialsOf(secret: string, needs: readonly KeyNeed[], secrets: MetricSecrets = {}): Credentials {
  const keys = needs.map(
    (n): CredentialKey => ({
      key: n.key,
      env: [...(n.before ?? []), secrets[secret]?.[n.key] ?? secretKeyEnv(secret, n.key)],
      required: n.required,
      secret: n.secret,
    }),
  );
  return { secret, keys };
}
