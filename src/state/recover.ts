import * as path from 'path';
import { KubeObject, objectKey } from '../model/kube';
import { RolloutRenderState, renderApp } from '../render/render-app';
import { RepoPeers } from '../render/repo-peers';
import { canonicalJson, templateRevision } from '../render/revision';
import { CANARY_SUFFIX, PING_PONG_LABEL, REVISION_ANNOTATION, TrackLabel } from '../model/track';
import { PodTemplateInput, podTemplateOf, stripTemplate } from '../render/workload';
import { PodMetadataPatch } from '../model/rollout';
import { LoadedApp, LoadedRollout } from '../spec/loaded-app';
import type { OutputSnapshot } from './app-state';
import { sourcePod } from './pods';
import { renderPhaseOf } from './lifecycle';
import { RolloutStatus } from './status';

/**
 * The status file can be lost (a bad merge, a hand clean-up). Without it an output would read as a
 * first deploy and the new version would go onto every stable pod at once. So when it is missing
 * but the output holds objects rollgen rendered, the state is rebuilt from them: the revision
 * annotations give the versions, and the state whose render equals the output gives the step.
 * - `recorded`: the status file is there (or the output holds nothing of rollgen's).
 * - `rebuilt`: a state was found; `output` carries it.
 * - `lost`: a canary is live but no state renders the output (the source changed since): refuse.
 */
export type Recovery =
  | { readonly kind: 'recorded'; readonly output: OutputSnapshot }
  | { readonly kind: 'rebuilt'; readonly output: OutputSnapshot; readonly summary: string }
  | { readonly kind: 'lost'; readonly problem: string };

const MAX_COMBINATIONS = 4096;

/** Pure: (app, output) -> the output with a status, rebuilt when it was missing. */
export function recoverStatus(app: LoadedApp, output: OutputSnapshot, track: TrackLabel, peers?: RepoPeers): Recovery {
  if (output.status) return { kind: 'recorded', output };
  const live = app.rollouts.map((r) => liveVersions(r, output, track));
  if (live.every((l) => !l.stable)) return { kind: 'recorded', output };
  const perRollout = app.rollouts.map((r, i) => candidates(r, live[i]).map((c) => withSide(r, output, c)));
  const match = firstMatch(app, output, track, peers, perRollout, live);
  const statuses = match ?? fallback(perRollout, live);
  if (!statuses) {
    const canaries = app.rollouts
      .filter((_, i) => live[i].canary)
      .map((r) => `${r.spec.workload.name}${CANARY_SUFFIX}`);
    return {
      kind: 'lost',
      problem: `a canary is live (${canaries.join(', ')}) but no state of the source renders what the output holds`,
    };
  }
  const rollouts = statuses.filter((s): s is RolloutStatus => s !== undefined);
  const status = { app: app.name, rollouts, files: [...(output.renderedFiles ?? [])], history: [] };
  const summary = rollouts.map((s) => `${s.name}: ${describe(s)}`).join(', ');
  return { kind: 'rebuilt', output: { ...output, status }, summary };
}

interface LiveVersions {
  readonly stable?: PodTemplateInput;
  readonly canary?: PodTemplateInput;
}

/** The pod templates the output runs, read back from the Deployments rollgen rendered. */
function liveVersions(r: LoadedRollout, output: OutputSnapshot, track: TrackLabel): LiveVersions {
  const pod = (name: string, patch: PodMetadataPatch): PodTemplateInput | undefined => {
    const found = output.resources.find('Deployment', name, r.spec.namespace);
    if (!found || !isRendered(found.object)) return undefined;
    const template = stripTemplate(podTemplateOf(found.object), track, patch);
    return { template, revision: templateRevision(template) };
  };
  const stable = pod(r.spec.workload.name, r.spec.stablePodMetadata);
  const canary = pod(`${r.spec.workload.name}${CANARY_SUFFIX}`, r.spec.canaryPodMetadata);
  return { ...(stable ? { stable } : {}), ...(canary ? { canary } : {}) };
}

function isRendered(o: KubeObject): boolean {
  return o.metadata.annotations?.[REVISION_ANNOTATION] !== undefined;
}

/** Every state the rollout could be in, earliest first: a tie picks the earlier step, which repeats a step rather than skip one. */
function candidates(r: LoadedRollout, live: LiveVersions): (RolloutStatus | undefined)[] {
  if (!live.stable) return [undefined];
  const steps = r.plan.steps.length;
  const base = { name: r.spec.name, steps, step: 0, stableRevision: live.stable.revision };
  if (!live.canary)
    return [
      { ...base, phase: 'Adopting' },
      { ...base, phase: 'Healthy' },
    ];
  const canaryRevision = live.canary.revision;
  const numbers = Array.from({ length: steps }, (_, i) => i + 1);
  return [
    ...numbers.map((step): RolloutStatus => ({ ...base, phase: 'Progressing', step, canaryRevision })),
    ...numbers.map((step): RolloutStatus => ({ ...base, phase: 'Promoting', step, canaryRevision })),
    ...numbers.map((draining): RolloutStatus => ({ ...base, phase: 'Healthy', draining })),
    ...(r.spec.pingPong ? [{ ...base, phase: 'Healthy', draining: steps, drainingPromotion: true } as const] : []),
  ];
}

/** Ping-pong: the stable pods carry the name of the Service that is stable. */
function withSide(r: LoadedRollout, output: OutputSnapshot, s: RolloutStatus | undefined): RolloutStatus | undefined {
  if (!s || !r.spec.pingPong) return s;
  const found = output.resources.find('Deployment', r.spec.workload.name, r.spec.namespace)?.object;
  const labels = (podTemplateOf(found ?? { apiVersion: '', kind: '', metadata: { name: '' } }).metadata ?? {}) as {
    labels?: Record<string, string>;
  };
  return { ...s, pingPong: labels.labels?.[PING_PONG_LABEL] === 'pong' ? 'pong' : 'ping' };
}

function firstMatch(
  app: LoadedApp,
  output: OutputSnapshot,
  track: TrackLabel,
  peers: RepoPeers | undefined,
  perRollout: readonly (RolloutStatus | undefined)[][],
  live: readonly LiveVersions[],
): (RolloutStatus | undefined)[] | undefined {
  const total = perRollout.reduce((n, c) => n * c.length, 1);
  if (total > MAX_COMBINATIONS) return undefined;
  const owned = ownedObjects(output);
  for (let index = 0; index < total; index++) {
    let rest = index;
    const combo = perRollout.map((c) => {
      const pick = c[rest % c.length];
      rest = Math.floor(rest / c.length);
      return pick;
    });
    const states = app.rollouts.map((r, i): RolloutRenderState => {
      const source = sourcePod(r, track);
      const phase = renderPhaseOf(combo[i]);
      const side = combo[i]?.pingPong ? { stableSide: combo[i]!.pingPong } : {};
      return { rollout: r, phase, stablePod: live[i].stable ?? source, canaryPod: live[i].canary ?? source, ...side };
    });
    if (sameObjects(renderApp(app, states, track, peers), owned)) return combo;
  }
  return undefined;
}

/** Without a live canary the state is stable: the next advance starts a canary at step 1 at the earliest. */
function fallback(
  perRollout: readonly (RolloutStatus | undefined)[][],
  live: readonly LiveVersions[],
): (RolloutStatus | undefined)[] | undefined {
  if (live.some((l) => l.canary)) return undefined;
  return perRollout.map((c) => c.find((s) => s?.phase === 'Healthy'));
}

function ownedObjects(output: OutputSnapshot): Map<string, string> {
  const files = new Set(output.renderedFiles ?? []);
  const items = output.resources.items.filter((i) => files.has(path.basename(i.origin.file)));
  return new Map(items.map((i) => [objectKey(i.object), canonicalJson(i.object)]));
}

function sameObjects(rendered: readonly KubeObject[], owned: ReadonlyMap<string, string>): boolean {
  if (rendered.length !== owned.size) return false;
  return rendered.every((o) => owned.get(objectKey(o)) === canonicalJson(o));
}

function describe(s: RolloutStatus): string {
  if (s.draining !== undefined) return 'draining (canary workloads are removed next)';
  if (s.phase === 'Progressing') return `step ${s.step} of ${s.steps}`;
  if (s.phase === 'Promoting') return 'promoting';
  return s.phase === 'Adopting' ? 'adopting' : 'stable';
}
