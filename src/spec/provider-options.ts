import Ajv, { ValidateFunction } from 'ajv';
import type { TrafficGenerator } from '../../generators/types';
import { Diagnostic } from '../diagnostics';
import { cloneJson } from '../model/kube';
import { ProviderRef } from './types';

const compiled = new WeakMap<object, ValidateFunction>();
let ajv: Ajv | undefined;

/** Validates a provider's options against its declared schema and fills defaults; the generator then sees typed options. */
export function bindOptions(generator: TrafficGenerator, ref: ProviderRef): { options: unknown; diagnostics: Diagnostic[] } {
  const validate = compile(generator.optionsSchema);
  const options = cloneJson(ref.options);
  if (validate(options)) return { options, diagnostics: [] };
  const diagnostics = (validate.errors ?? []).map((e) => ({
    ...ref.origin,
    message: `${generator.id} options${e.instancePath.replace(/\//g, '.')}: ${e.message ?? 'invalid'}`,
    severity: 'error' as const,
  }));
  return { options, diagnostics };
}

function compile(schema: object): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    ajv ??= new Ajv({ allErrors: true, useDefaults: true, strict: false });
    fn = ajv.compile(schema);
    compiled.set(schema, fn);
  }
  return fn;
}
