import { ContainerImage, RolloutView, ViewPhase } from './status-view';

/**
 * The text of `rollgen status`, laid out as `kubectl argo rollouts get rollout` lays out a rollout:
 * a label column, the status with its symbol, the step, traffic and replicas, the images by track.
 * Pure.
 */
const SYMBOLS: Readonly<Record<ViewPhase, string>> = {
  NotDeployed: '○',
  Adopting: '◌',
  Healthy: '✔',
  Progressing: '◌',
  Paused: '॥',
  Promoting: '◌',
  Draining: '◌',
  Aborted: '✖',
  Held: '॥',
};

const WIDTH = 15;
const field = (label: string, value: string) => `${`${label}:`.padEnd(WIDTH)}${value}`;
const more = (value: string) => `${''.padEnd(WIDTH)}${value}`;

export function formatStatusView(views: readonly RolloutView[], disabled: readonly string[] = []): string {
  return [...views.map(formatRollout), ...disabled.map((d) => d + '\n')].join('\n');
}

function formatRollout(v: RolloutView): string {
  const lines = [
    field('Name', `${v.app}/${v.rollout}`),
    field('Status', `${SYMBOLS[v.phase]} ${v.phase}`),
    field('Message', v.message),
    field('Strategy', strategy(v)),
    ...stepLines(v),
    ...imageLines(v),
    ...gateLines(v),
    ...signalLines(v),
    ...githubLines(v),
    field('Mode', modeText(v)),
    ...nextLines(v),
    ...v.drift.map((d, i) => (i === 0 ? field('Drift', d) : more(d))),
  ];
  return lines.join('\n') + '\n';
}

function strategy(v: RolloutView): string {
  const providers = v.strategy.providers.length > 0 ? `; ${v.strategy.providers.join(', ')}` : '';
  const s = v.strategy;
  // Named as `kubectl argo rollouts get rollout` names them; Kruise's partition is its in-place canary.
  if (s.name === 'blue-green') return `BlueGreen (${s.format}${providers})`;
  const kind = s.name === 'partition' ? ', partition: new pods replace stable ones' : s.pingPong ? ', ping-pong' : '';
  return `Canary (${s.format}${kind}${providers})`;
}

const sub = (label: string, value: string) => `  ${`${label}:`.padEnd(WIDTH - 2)}${value}`;

/** Blue-green has no canary: the two tracks are the old version and the new one the preview runs. */
const tracks = (v: RolloutView) =>
  !v.strategy.blueGreen
    ? { stable: 'stable', canary: 'canary' }
    : // Promotion has put the new version on the stable Deployment: it is no longer the old one.
      { stable: v.phase === 'Promoting' ? 'stable' : 'old', canary: 'new' };

function stepLines(v: RolloutView): string[] {
  const name = v.step !== null && v.stepName ? ` (${v.stepName})` : '';
  const reached = v.aborted?.step ? ` (aborted at step ${v.aborted.step})` : '';
  const step = v.step !== null ? `${v.step}/${v.steps}${name}` : `-/${v.steps}${reached}`;
  const t = v.traffic;
  const traffic = t === null ? '-' : trafficText(t, v.strategy.blueGreen ? 'the new version' : 'canary');
  const r = v.replicas;
  const n = tracks(v);
  return [
    sub('Step', step),
    sub('Traffic', traffic),
    sub('Replicas', `${n.canary} ${r.canary}, ${n.stable} ${r.stable} (desired ${r.desired})`),
  ];
}

function trafficText(t: NonNullable<RolloutView['traffic']>, canary: string): string {
  const share = (weight: number, total: number) => (total === 100 ? `${weight}%` : `${weight}/${total}`);
  const parts = [
    t.byPods
      ? 'shared by pod count (the stable Service selects both tracks)'
      : `${share(t.weight, t.weightTotal)} to ${canary}`,
    ...(t.matches ? [`requests matching ${t.matches}`] : []),
    ...(t.mirror ? [`mirror ${t.mirror}`] : []),
  ];
  const r = t.sharedRouting;
  if (r) parts.push(`TrafficRouting ${r.name}: ${r.matches ? `requests matching ${r.matches}` : `${r.weight}%`}`);
  return parts.join('; ');
}

function imageLines(v: RolloutView): string[] {
  const tagged = (list: readonly ContainerImage[] | null, track: string) =>
    (list ?? []).map((c) => `${c.image} (${track}${list!.length > 1 ? `, ${c.container}` : ''})`);
  const n = tracks(v);
  // An aborted rollout's canary Deployment (while draining) runs the held-back revision: it is shown once, as aborted.
  const held = v.aborted ? tagged(v.aborted.images, 'aborted') : [];
  const canary = v.aborted ? [] : tagged(v.images.canary, n.canary);
  const shown = [...tagged(v.images.stable, n.stable), ...canary, ...held];
  if (v.sourceChanged || shown.length === 0) shown.push(...tagged(v.images.source, 'source'));
  const aborted = v.aborted ? `, aborted ${v.aborted.revision}` : '';
  const revisions = `revisions: stable ${v.revisions.stable ?? '-'}, canary ${v.revisions.canary ?? '-'}${aborted}, source ${v.revisions.source}`;
  return [...shown.map((s, i) => (i === 0 ? field('Images', s) : more(s))), more(revisions)];
}

function gateLines(v: RolloutView): string[] {
  const g = v.gate;
  if (!g) return [field('Gate', 'none: nothing moves until the source changes')];
  const kind = g.kind === 'timed' ? `after ${g.seconds}s` : g.kind;
  const since = g.since ? ` (counting from ${g.since})` : '';
  return [field('Gate', `before ${g.before}: ${kind}; ${g.detail}${since}`)];
}

function signalLines(v: RolloutView): string[] {
  const s = v.signals;
  if (!s) return [];
  return [
    ...(s.health ? [field('Health', `${s.health.state}: ${s.health.detail}`)] : []),
    ...(s.analysis ? [field('Analysis', `${s.analysis.verdict}: ${s.analysis.detail}`)] : []),
    ...(s.verify?.weights ? [field('ALB weights', `${s.verify.weights.state}: ${s.verify.weights.detail}`)] : []),
    ...(s.verify?.targetGroupIPs
      ? [field('Target IPs', `${s.verify.targetGroupIPs.state}: ${s.verify.targetGroupIPs.detail}`)]
      : []),
  ];
}

const FORGE_LABEL = { github: 'GitHub', gitlab: 'GitLab', gitea: 'Gitea' } as const;

function githubLines(v: RolloutView): string[] {
  const g = v.github;
  if (!g.looked) return [field('GitHub', `not looked up (${g.why})`)];
  const host = FORGE_LABEL[g.forge ?? 'github'];
  const kind = g.forge === 'gitlab' ? 'MR' : 'PR';
  if (g.pulls.length === 0) return [field(host, `no open rollgen ${kind} for this app`)];
  return g.pulls.map((p, i) => {
    const line = `${kind} ${p.ref ?? `#${p.number}`} (${p.does}) open: ${p.title} ${p.url}; merging it applies it`;
    return i === 0 ? field(host, line) : more(line);
  });
}

/** Which commands Next gives, and why status took the user for that mode (status-mode.ts). */
function modeText(v: RolloutView): string {
  const m = v.mode;
  if (m.name === 'pr') return `PR flow: rollgen pr opens each step's PR and merges it when its gate passes (${m.why})`;
  if (m.name === 'commit') return `local git (--commit): advance --commit waits for each gate (${m.why})`;
  return `local: advance writes the next state at once, you are the gate (${m.why})`;
}

function nextLines(v: RolloutView): string[] {
  const all = [...(v.next ? [v.next] : []), ...v.otherCommands];
  const first = v.phase === 'Held' ? [field('Next', 'set the field that pauses it to false')] : [];
  if (all.length === 0 && first.length === 0) return [field('Next', 'nothing to do')];
  return [
    ...first,
    ...all.map((c, i) => {
      const line = `${c.command}  # ${c.does}`;
      return i === 0 && first.length === 0 ? field('Next', line) : more(`or ${line}`);
    }),
  ];
}
