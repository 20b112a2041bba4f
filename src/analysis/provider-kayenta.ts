import { diagnosticAt } from '../diagnostics';
import { isObject } from '../model/kube';
import { ProviderFields, refuseUnknown, textAt, textField } from './provider-fields';
import { KayentaProvider, KayentaScopeDetail } from './types';

const FIELDS = [
  'address',
  'application',
  'canaryConfigName',
  'metricsAccountName',
  'configurationAccountName',
  'storageAccountName',
  'threshold',
  'scopes',
  'lookback',
];
const SCOPE_DETAIL = ['scope', 'region', 'step', 'start', 'end'];

/**
 * Argo's `provider.kayenta`: a judge. Its score decides the measurement against `threshold`
 * (pass: Successful, marginal: Inconclusive, below: Failed), not a condition. Pure.
 */
export function kayentaProvider(f: ProviderFields): KayentaProvider {
  refuseUnknown(f, FIELDS);
  const text = (k: string) => textField(f, k, true) ?? '';
  const threshold = isObject(f.body.threshold) ? f.body.threshold : {};
  const int = (v: unknown, at: (string | number)[]) => {
    if (typeof v === 'number' && Number.isInteger(v)) return v;
    f.out.push(diagnosticAt(f.here(...at), `kayenta ${at.join('.')} must be an integer`));
    return 0;
  };
  const scopes = Array.isArray(f.body.scopes) ? f.body.scopes : [];
  if (scopes.length === 0) f.out.push(diagnosticAt(f.here(), 'kayenta provider needs scopes (control and experiment)'));
  return {
    kind: 'kayenta',
    address: text('address'),
    application: text('application'),
    canaryConfigName: text('canaryConfigName'),
    metricsAccountName: text('metricsAccountName'),
    configurationAccountName: text('configurationAccountName'),
    storageAccountName: text('storageAccountName'),
    threshold: {
      pass: int(threshold.pass, ['threshold', 'pass']),
      marginal: int(threshold.marginal, ['threshold', 'marginal']),
    },
    scopes: scopes.map((s, i) => {
      const at = ['scopes', i];
      const scope = isObject(s) ? s : {};
      const detail = (side: string) => scopeDetail(f, scope[side], [...at, side]);
      const both = { control: detail('controlScope'), experiment: detail('experimentScope') };
      for (const edge of ['start', 'end'] as const)
        if ((both.control[edge] === undefined) !== (both.experiment[edge] === undefined))
          f.out.push(
            diagnosticAt(
              f.here(...at),
              `controlScope.${edge} and experimentScope.${edge} must both be set or be empty`,
            ),
          );
      return { name: textAt(f, scope.name, [...at, 'name'], true) ?? '', ...both };
    }),
    lookback: f.body.lookback === true,
    // rollgen waits for the judgement within the measurement: up to 5 minutes.
    timeoutSeconds: 300,
    secretArgs: f.args.secrets,
  };
}

function scopeDetail(f: ProviderFields, v: unknown, at: (string | number)[]): KayentaScopeDetail {
  if (!isObject(v)) {
    f.out.push(diagnosticAt(f.here(...at), `kayenta ${at.join('.')} needs scope, region and step`));
    return { scope: '', region: '', step: 0 };
  }
  for (const k of Object.keys(v).filter((k) => !SCOPE_DETAIL.includes(k)))
    f.out.push(diagnosticAt(f.here(...at, k), `kayenta scope field ${k} is not an Argo field`));
  const start = textAt(f, v.start, [...at, 'start'], false);
  const end = textAt(f, v.end, [...at, 'end'], false);
  return {
    scope: textAt(f, v.scope, [...at, 'scope'], true) ?? '',
    region: textAt(f, v.region, [...at, 'region'], false) ?? '',
    step: typeof v.step === 'number' ? v.step : 0,
    ...(start !== undefined ? { start } : {}),
    ...(end !== undefined ? { end } : {}),
  };
}
