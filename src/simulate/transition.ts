import { KubeObject, isObject, objectKey } from '../model/kube';
import { canonicalJson } from '../render/revision';
import { SYNC_OPTIONS, SYNC_WAVE } from '../model/track';

/** The cluster between two commits: the objects applied so far and the Deployments whose pods are ready. */
export interface ClusterMoment {
  readonly label: string;
  readonly objects: readonly KubeObject[];
  readonly ready: ReadonlySet<string>;
}

/**
 * Moments a GitOps sync passes through from `before` to `after`: Argo CD applies lower waves first,
 * waits for health, and prunes higher waves first. Both prune-first and prune-last orders are
 * produced, since the agent (or Flux with dependsOn) may do either. Pure.
 */
export function syncMoments(before: readonly KubeObject[], after: readonly KubeObject[]): ClusterMoment[] {
  const { applies, prunes } = changes(before, after);
  const applyGroups = groupByWave(applies, 1).map((g) => ({ kind: 'apply' as const, ...g }));
  const pruneGroups = (objects: readonly KubeObject[]) =>
    groupByWave(objects, -1).map((g) => ({ kind: 'prune' as const, ...g }));
  // Argo CD's PruneLast defers a prune to after every apply, whichever order the rest takes.
  const early = prunes.filter((o) => !pruneLast(o));
  const late = prunes.filter(pruneLast);
  return [
    ...walk(before, [...applyGroups, ...pruneGroups(prunes)], 'prune last'),
    ...walk(before, [...pruneGroups(early), ...applyGroups, ...pruneGroups(late)], 'prune first'),
  ];
}

/**
 * Moments Flux passes through with the README's split: a `workloads` Kustomization (wait: true)
 * applies and prunes everything but the routes, then `routes` (dependsOn: workloads) applies and
 * prunes the routing objects. Each Kustomization prunes right after it applies. Pure.
 */
export function fluxMoments(
  before: readonly KubeObject[],
  after: readonly KubeObject[],
  isRoute: (o: KubeObject) => boolean = (o) => waveOf(o) >= 1,
): ClusterMoment[] {
  const { applies, prunes } = changes(before, after);
  const part = (route: boolean): Group[] => [
    { kind: 'apply', wave: route ? 1 : 0, objects: applies.filter((o) => isRoute(o) === route) },
    { kind: 'prune', wave: route ? 1 : 0, objects: prunes.filter((o) => isRoute(o) === route) },
  ];
  return walk(before, [...part(false), ...part(true)], 'flux');
}

/** What a sync does between two commits: objects applied (new or changed) and objects pruned. */
function changes(
  before: readonly KubeObject[],
  after: readonly KubeObject[],
): { applies: KubeObject[]; prunes: KubeObject[] } {
  const afterKeys = new Set(after.map(objectKey));
  const beforeByKey = new Map(before.map((o) => [objectKey(o), o]));
  return {
    applies: after.filter((o) => canonicalJson(beforeByKey.get(objectKey(o))) !== canonicalJson(o)),
    prunes: before.filter((o) => !afterKeys.has(objectKey(o))),
  };
}

interface Group {
  readonly kind: 'apply' | 'prune';
  readonly wave: number;
  readonly objects: readonly KubeObject[];
}

function walk(start: readonly KubeObject[], groups: readonly Group[], order: string): ClusterMoment[] {
  let state = new Map(start.map((o) => [objectKey(o), o]));
  let ready = new Set(start.filter(runsPods).map((o) => o.metadata.name));
  const moments: ClusterMoment[] = [];
  for (const g of groups) {
    state = new Map(state);
    for (const o of g.objects) {
      if (g.kind === 'prune') state.delete(objectKey(o));
      else state.set(objectKey(o), o);
    }
    // Applied routes act at once; applied Deployments have ready pods only if they had them before (rolling update).
    ready = new Set(
      [...ready].filter((name) =>
        [...state.values()].some((o) => o.kind === 'Deployment' && o.metadata.name === name && runsPods(o)),
      ),
    );
    moments.push({ label: `${order}: during ${g.kind} wave ${g.wave}`, objects: [...state.values()], ready });
    if (g.kind === 'apply') for (const o of g.objects.filter(runsPods)) ready = new Set([...ready, o.metadata.name]);
    moments.push({ label: `${order}: after ${g.kind} wave ${g.wave}`, objects: [...state.values()], ready });
  }
  return moments;
}

function pruneLast(o: KubeObject): boolean {
  return (o.metadata.annotations?.[SYNC_OPTIONS] ?? '').split(',').some((opt) => opt.trim() === 'PruneLast=true');
}

function groupByWave(objects: readonly KubeObject[], direction: 1 | -1): { wave: number; objects: KubeObject[] }[] {
  const waves = new Map<number, KubeObject[]>();
  for (const o of objects) waves.set(waveOf(o), [...(waves.get(waveOf(o)) ?? []), o]);
  return [...waves.entries()]
    .sort((a, b) => direction * (a[0] - b[0]))
    .map(([wave, objs]) => ({ wave, objects: objs }));
}

function waveOf(o: KubeObject): number {
  const w = Number.parseInt(o.metadata.annotations?.[SYNC_WAVE] ?? '0', 10);
  return Number.isFinite(w) ? w : 0;
}

function runsPods(o: KubeObject): boolean {
  return o.kind === 'Deployment' && !(isObject(o.spec) && o.spec.replicas === 0);
}
