import { Diagnostic, Origin } from '../diagnostics';
import { RolloutSpec } from '../model/rollout';

/** One Service a rollout names, and where it names it. */
interface ServiceRef {
  readonly name: string;
  readonly origin: Origin;
}

/**
 * A Service belongs to one rollout. rollgen points a rollout's stable Service at its stable pods,
 * its canary Service (`<service>-canary`, one name per stable Service) at its canary pods, and
 * routes weights between the two: a second rollout on the same Service would share that one canary
 * Service, whose selector can match only one rollout's pods, so one rollout's canary share would
 * land on the other's pods. Argo refuses it too ("Service %q is managed by another Rollout", its
 * managed-by-rollouts annotation); Kruise patches the one canary Service's selector back and forth.
 * Refused at the later rollout's reference, for every provider (and none) alike.
 */
export function checkOneRolloutPerService(specs: readonly RolloutSpec[], out: Diagnostic[]): void {
  const owners = new Map<string, { rollout: RolloutSpec; ref: ServiceRef }>();
  for (const rollout of specs) {
    for (const ref of serviceRefs(rollout)) {
      const key = `${rollout.namespace ?? ''}/${ref.name}`;
      const first = owners.get(key);
      if (!first) owners.set(key, { rollout, ref });
      else if (first.rollout !== rollout) out.push(conflict(first, rollout, ref));
    }
  }
}

/** The Services a rollout routes by name (Argo GetRolloutServiceKeys: stable, canary, ping, pong), each once. */
function serviceRefs(r: RolloutSpec): ServiceRef[] {
  const { stableService, canaryService, generateCanaryService, serviceOrigins } = r.traffic;
  const refs: ServiceRef[] = [];
  const add = (name: string | undefined, origin: Origin | undefined) => {
    if (name && !refs.some((ref) => ref.name === name)) refs.push({ name, origin: origin ?? r.origin });
  };
  if (r.pingPong) {
    add(r.pingPong.ping, r.pingPong.origin);
    add(r.pingPong.pong, r.pingPong.origin);
  }
  add(stableService, serviceOrigins?.stable);
  // A generated canary Service is named after the stable one: the stable Service's conflict says it.
  if (!generateCanaryService) add(canaryService, serviceOrigins?.canary);
  return refs;
}

function conflict(first: { rollout: RolloutSpec; ref: ServiceRef }, rollout: RolloutSpec, ref: ServiceRef): Diagnostic {
  const at = `${first.ref.origin.file}:${first.ref.origin.line}`;
  return {
    ...ref.origin,
    message: `rollouts ${first.rollout.name} (${at}) and ${rollout.name} both route Service "${ref.name}": one Service selects the pods of one rollout only, so they would share one canary Service and one rollout's canary traffic would reach the other's pods (Argo refuses this too: the Service is managed by another Rollout); give rollout ${rollout.name} a Service of its own`,
    severity: 'error',
  };
}
