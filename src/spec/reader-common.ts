import { Diagnostic, Origin } from '../diagnostics';
import { ParsedDocument } from '../yaml/parse';
import { RolloutSpec } from '../model/rollout';
import { num, obj } from '../model/values';

/** What the Argo and Kruise readers treat alike. */

/** A paused rollout holds where it is (Argo spec.paused, Kruise strategy.paused). */
export function withPause(
  doc: ParsedDocument,
  rollout: RolloutSpec,
  paused: boolean,
  path: (string | number)[],
): RolloutSpec {
  return paused ? { ...rollout, pausedBy: { field: path.join('.'), origin: doc.locate(path) } } : rollout;
}

/** workloadRef.apiVersion: absent (Argo lets it be) or apps/v1, the only Deployment API there is. */
export const isAppsV1 = (apiVersion: unknown) => apiVersion === undefined || apiVersion === 'apps/v1';

export function wrongDeploymentApi(apiVersion: unknown): string {
  return `workloadRef.apiVersion ${JSON.stringify(apiVersion)} names no Deployment API; a Deployment is apps/v1 (the controller would find no workload)`;
}

/** The warning for replicas: 0 (the Deployment's, or an Argo Rollout's, which governs): `who` has it. */
export function scaledToZero(who: string): string {
  return `${who}replicas: 0: no pod of either version serves the traffic any step sends; scale it up to roll out`;
}

/** One message for every workload kind but Deployment (CloneSet, StatefulSet, DaemonSet, ...). */
export function unsupportedWorkload(kind: string | undefined): string {
  return `workloadRef.kind ${kind ?? '(none)'} is not supported: rollgen renders Deployments only; a ${kind ?? 'workload'} rollout needs the rollout controller in the cluster`;
}

/**
 * Argo canary and blueGreen antiAffinity: exactly one of requiredDuringScheduling... and
 * preferredDuringScheduling... (weight 1-100), as Argo's validation (ValidateRolloutStrategyAntiAffinity)
 * demands; anything else is refused there, never narrowed to one of them.
 */
export function antiAffinityOf(
  doc: ParsedDocument,
  strategy: Record<string, unknown>,
  at: readonly (string | number)[],
  out: Diagnostic[],
): Pick<RolloutSpec, 'antiAffinity'> {
  if (strategy.antiAffinity === undefined) return {};
  const path = [...at, 'antiAffinity'];
  const {
    preferredDuringSchedulingIgnoredDuringExecution: preferred,
    requiredDuringSchedulingIgnoredDuringExecution: required,
  } = obj(strategy.antiAffinity);
  if ((preferred === undefined) === (required === undefined)) {
    const which = preferred === undefined ? ['neither', 'nor'] : ['both', 'and'];
    out.push({
      ...doc.locate(path),
      message: `antiAffinity sets ${which[0]} requiredDuringSchedulingIgnoredDuringExecution ${which[1]} preferredDuringSchedulingIgnoredDuringExecution; Argo takes exactly one (and refuses this): keep the one you mean`,
      severity: 'error',
    });
    return {};
  }
  if (preferred === undefined) return { antiAffinity: {} };
  const weight = num(obj(preferred).weight);
  if (weight === undefined || weight < 1 || weight > 100)
    out.push({
      ...doc.locate(
        obj(preferred).weight === undefined
          ? [...path, 'preferredDuringSchedulingIgnoredDuringExecution']
          : [...path, 'preferredDuringSchedulingIgnoredDuringExecution', 'weight'],
      ),
      message: `antiAffinity preferred weight ${weight ?? '(none)'}: Argo takes a weight from 1 to 100; write one (e.g. weight: 50)`,
      severity: 'error',
    });
  return { antiAffinity: { preferredWeight: weight ?? 1 } };
}

/** Where the stable and canary (active and preview) Service names and their strategy are written, for located messages. */
export function serviceOrigins(
  doc: ParsedDocument,
  strategy: Record<string, unknown>,
  at: readonly (string | number)[],
  stableKey: string,
  canaryKey: string,
): { stable?: Origin; canary?: Origin; strategy: Origin } {
  return {
    strategy: doc.locate(at),
    ...(strategy[stableKey] !== undefined ? { stable: doc.locate([...at, stableKey]) } : {}),
    ...(strategy[canaryKey] !== undefined ? { canary: doc.locate([...at, canaryKey]) } : {}),
  };
}
