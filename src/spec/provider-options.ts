import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import { VALIDATOR_IDS, ValidatorId, validatorFor } from './generated';
import type { TrafficGenerator } from '../contract/generator';
import { Diagnostic } from '../diagnostics';
import { cloneJson } from '../model/kube';
import { ProviderRef } from '../model/rollout';

const compiled = new WeakMap<object, ValidateFunction>();
let ajv: Ajv | undefined;

/** Validates a provider's options against its declared schema and fills defaults; the generator then sees typed options. */
export function bindOptions(
  generator: TrafficGenerator,
  ref: ProviderRef,
): { options: unknown; diagnostics: Diagnostic[] } {
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

/** Built-in generators use validators precompiled at build time; ajv's compiler loads only for registered extras. */
function compile(schema: object): ValidateFunction {
  const id = (schema as { $id?: string }).$id;
  if (id && (VALIDATOR_IDS as readonly string[]).includes(id))
    return validatorFor(id as ValidatorId) as ValidateFunction;
  let fn = compiled.get(schema);
  if (!fn) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const AjvClass = (require('ajv') as { default: typeof Ajv }).default;
    ajv ??= new AjvClass({ allErrors: true, useDefaults: true, strict: false });
    fn = ajv.compile(schema);
    compiled.set(schema, fn);
  }
  return fn;
}
