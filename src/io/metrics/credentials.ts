import { Credentials } from '../../analysis/types';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The values of a provider's Secret keys, each from the first of its environment variables that is set.
 * A missing required key fails the measurement, naming the variables to set (never a value).
 */
export function readCredentials(c: Credentials, env: Env): Readonly<Record<string, string | undefined>> {
  const values: Record<string, string | undefined> = {};
  const missing: string[] = [];
  for (const k of c.keys) {
    const name = k.env.find((e) => env[e] !== undefined && env[e] !== '');
    values[k.key] = name === undefined ? undefined : env[name];
    if (name === undefined && k.required) missing.push(`${k.key} (set ${k.env.join(' or ')})`);
  }
  if (missing.length > 0)
    throw new Error(
      `credentials of Secret "${c.secret}" not found: ${missing.join(', ')}; name other variables in rollgen.yaml metricSecrets.${c.secret}`,
    );
  return values;
}

/** Every set value of a secret key (not an address), to be replaced by ***** wherever text is shown. */
export function credentialValues(c: Credentials, env: Env): string[] {
  return c.keys.filter((k) => k.secret).flatMap((k) => k.env.map((e) => env[e]).filter((v): v is string => !!v));
}
