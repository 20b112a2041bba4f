import { createHash } from 'crypto';
import type { WaveConfig } from '../io/config-waves';
import type { LoadedEntry } from '../app/load-repo';
import { Target, branchName, targetSlug } from './branch';
import { Marker, parseMarker, withMarker } from './marker';
import { Proposal } from './proposal';
import { combineGates, furthestBehind, labelsFor } from './target';

/** The app name a wave's PRs are filed under: `rollgen/wave_3a<name>/step-2` (branch.ts encodes the colon). */
export const waveApp = (wave: string): string => `wave:${wave}`;

/** The wave a pseudo-app name stands for, or undefined for a real app. */
export const waveOf = (app: string): string | undefined => (app.startsWith('wave:') ? app.slice(5) : undefined);

/** One target of a wave step: the app and what it alone would propose. */
export interface TargetPart {
  readonly entry: LoadedEntry;
  readonly proposal: Proposal;
}

/** Where the wave step sits: the wave, its position, how many waves there are. */
export interface WaveAt {
  readonly wave: WaveConfig;
  readonly number: number;
  readonly count: number;
}

/**
 * The wave step as ONE PR (docs/fleet.md): one branch and one commit touching every moving
 * target's output, the targets listed in the body, and one marker naming the wave step, so a rerun
 * finds the PR and changes nothing. The strictest gate of the targets gates it. Pure.
 */
export function waveProposal(at: WaveAt, parts: readonly TargetPart[], extraLabels: readonly string[]): Proposal {
  const target = furthestBehind(parts.map((p) => p.proposal.target));
  const gate = combineGates(parts.map((p) => p.proposal.gate));
  const origin = parts.some((p) => p.proposal.marker.origin === 'command') ? 'command' : 'flow';
  const marker: Marker = {
    v: 1,
    app: waveApp(at.wave.name),
    target: targetSlug(target),
    revision: parts.map((p) => p.proposal.marker.revision).join(','),
    stable: parts.map((p) => p.proposal.marker.stable).join(','),
    digest: digestOf(parts),
    origin,
    ...(parts.some((p) => p.proposal.marker.failure) ? { failure: true as const } : {}),
  };
  const title = `rollgen(wave ${at.wave.name}): ${stepText(target, parts)}`;
  const body = [
    `**Wave ${at.wave.name} (wave ${at.number} of ${at.count}): ${stepText(target, parts)}.** One PR for ${parts.length} target(s): merging it moves all of them; later waves are not touched and keep the version they run.`,
    '',
    '| Target | Cluster | Moves | Gate | Files |',
    '| --- | --- | --- | --- | --- |',
    ...parts.map(
      (p) =>
        `| ${p.entry.app.name} | ${p.entry.loc.target?.cluster ?? '-'} | ${describeMove(p.proposal.target)} | ${p.proposal.gate.kind} | ${p.proposal.changes.length} |`,
    ),
    ...parts.flatMap((p) => gateSection(p)),
  ].join('\n');
  return {
    app: marker.app,
    target,
    branch: branchName(marker.app, target),
    gate,
    marker,
    title,
    body: withMarker(body, marker),
    labels: labelsFor(gate, extraLabels),
    message: `${title}\n\n${parts.map((p) => p.proposal.message.split('\n')[0]).join('\n')}\n`,
    changes: parts.flatMap((p) => p.proposal.changes).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
  };
}

/** `step 2 of 3`, `promote`, ...; targets at different points are listed one by one. */
function stepText(target: Target, parts: readonly TargetPart[]): string {
  const slugs = new Set(parts.map((p) => targetSlug(p.proposal.target)));
  if (slugs.size > 1) return parts.map((p) => `${p.entry.app.name} ${describeMove(p.proposal.target)}`).join(', ');
  if (target.kind !== 'step') return describeMove(target);
  const steps = Math.max(...parts.flatMap((p) => p.entry.app.rollouts.map((r) => r.plan.steps.length)));
  return `step ${target.step} of ${steps}`;
}

const describeMove = (t: Target): string => (t.kind === 'step' ? `step ${t.step}` : t.kind);

/** Each target's own gate report (health, analysis), under its name. */
function gateSection(p: TargetPart): string[] {
  const at = p.proposal.body.indexOf('### Health and analysis of the current step');
  if (at < 0) return [];
  const marker = parseMarker(p.proposal.body) ? p.proposal.body.lastIndexOf('<!-- rollgen:') : -1;
  const text = p.proposal.body.slice(at, marker > at ? marker : undefined).trimEnd();
  return [
    '',
    text.replace('### Health and analysis of the current step', `### ${p.entry.app.name}: health and analysis`),
  ];
}

function digestOf(parts: readonly TargetPart[]): string {
  const hash = createHash('sha256');
  for (const p of parts) hash.update(`${p.entry.app.name} ${p.proposal.marker.digest}\n`);
  return hash.digest('hex').slice(0, 16);
}
