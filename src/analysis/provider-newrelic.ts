import { diagnosticAt } from '../diagnostics';
import { credentialsOf } from './credentials';
import { ProviderFields, refuseUnknown, textField } from './provider-fields';
import { NewRelicProvider } from './types';

/** Argo's default NRQL timeout, seconds. */
const NRQL_TIMEOUT = 5;

/**
 * Argo's `provider.newRelic`: `query` (NRQL), `profile` (the Secret with the account: default
 * `newrelic`), `timeout` (NRQL seconds). Pure.
 */
export function newRelicProvider(f: ProviderFields): NewRelicProvider {
  refuseUnknown(f, ['query', 'profile', 'timeout']);
  const raw = f.body.timeout;
  const nrqlTimeout = raw === undefined || raw === null ? NRQL_TIMEOUT : Number(raw);
  if (!Number.isInteger(nrqlTimeout) || nrqlTimeout < 0)
    f.out.push(diagnosticAt(f.here('timeout'), 'newRelic timeout must be a non-negative integer (seconds)'));
  const profile = textField(f, 'profile', false) ?? 'newrelic';
  return {
    kind: 'newrelic',
    query: textField(f, 'query', true) ?? '',
    nrqlTimeout,
    // The NRQL timeout bounds the query; the request gets 10 s more to come back.
    timeoutSeconds: (Number.isInteger(nrqlTimeout) ? nrqlTimeout : NRQL_TIMEOUT) + 10,
    credentials: credentialsOf(
      profile,
      [
        { key: 'personal-api-key', required: true, secret: true },
        { key: 'account-id', required: true, secret: false },
        { key: 'region', required: false, secret: false },
        { key: 'base-url-nerdgraph', required: false, secret: false },
      ],
      f.secrets,
    ),
    secretArgs: f.args.secrets,
  };
}
