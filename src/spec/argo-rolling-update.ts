import { Diagnostic } from '../diagnostics';
import { obj } from '../model/values';
import { ParsedDocument } from '../yaml/parse';

type Path = (string | number)[];

/**
 * maxSurge / maxUnavailable, which rollgen copies onto the rendered Deployments. Argo scales with
 * intstr.GetValueFromIntOrPercent, which reads every string as a percentage ("1" is 1%), while
 * Kubernetes refuses a Deployment whose string has no trailing % (and one with both at 0); so a
 * string without % would be misread by one and refused by the other: refused here, at the field.
 * Argo's validation (invalidMaxSurgeMaxUnavailable) refuses both at 0 for a canary.
 */
export function rollingUpdateProblems(doc: ParsedDocument, spec: Record<string, unknown>): Diagnostic[] {
  const strategy = obj(spec.strategy);
  const out: Diagnostic[] = [];
  const check = (block: string, key: string) => {
    const problem = intOrPercentProblem(key, obj(strategy[block])[key]);
    if (problem) out.push(error(doc, ['spec', 'strategy', block, key], problem));
  };
  check('canary', 'maxSurge');
  check('canary', 'maxUnavailable');
  check('blueGreen', 'maxUnavailable');
  const canary = obj(strategy.canary);
  if (isZero(canary.maxSurge) && isZero(canary.maxUnavailable))
    out.push(
      error(
        doc,
        ['spec', 'strategy', 'canary', 'maxUnavailable'],
        'maxSurge and maxUnavailable are both 0, so no pod can be added or replaced and the rollout never progresses (Argo and Kubernetes refuse this); raise one of them (e.g. maxUnavailable: 1)',
      ),
    );
  return out;
}

function intOrPercentProblem(key: string, v: unknown): string | undefined {
  if (typeof v !== 'string' || /^[0-9]+%$/.test(v)) return undefined;
  if (/^[0-9]+$/.test(v))
    return `${key} "${v}" is a string without %: Argo reads it as ${v}% and Kubernetes refuses it in a Deployment; write ${v} (a number of pods) or "${v}%" (a percentage)`;
  return `${key} "${v}" is neither a number of pods nor a percentage; write a number (1) or a percentage ("25%")`;
}

/** 0 or "0%" (a string without % is refused above). */
const isZero = (v: unknown): boolean => v === 0 || v === '0%';

function error(doc: ParsedDocument, path: Path, message: string): Diagnostic {
  return { ...doc.locate(path), message, severity: 'error' };
}
