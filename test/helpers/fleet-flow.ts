import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { FlowRun, FlowWorld } from './flow-world';
import { fleetRepo } from './fleet-repo';
import { commitAll, git } from './git-repo';

export const OUTPUTS = {
  staging: 'clusters/staging/web',
  'prod-eu': 'clusters/prod-eu/web',
  'prod-us': 'clusters/prod-us/web',
} as const;
export type FleetTarget = keyof typeof OUTPUTS;

/**
 * examples/fleet in git on `main`, each overlay built once by real kustomize into a plain directory
 * (the sources the targets read), every pause of the rollout `pauses` (default: 0s, so rollgen
 * merges each step once its gate passes), the rollgen.yaml edited by `edit`.
 */
export function fleetFlowWorld(edit: (yaml: string) => string = (y) => y, pauses = 'pause: {duration: 0}'): FlowWorld {
  const dir = fleetRepo((y) => edit(y.replace('source: web/overlays/{target}', 'source: web/built/{target}')));
  const rollout = path.join(dir, 'web', 'base', 'rollout.yaml');
  fs.writeFileSync(rollout, fs.readFileSync(rollout, 'utf8').replace(/pause: \{\}/g, pauses));
  for (const t of Object.keys(OUTPUTS)) {
    const built = execFileSync('kubectl', ['kustomize', path.join(dir, 'web', 'overlays', t)], { encoding: 'utf8' });
    fs.mkdirSync(path.join(dir, 'web', 'built', t), { recursive: true });
    fs.writeFileSync(path.join(dir, 'web', 'built', t, 'all.yaml'), built);
  }
  const w = new FlowWorld([], '', dir);
  git(dir, ['init', '--quiet', '--initial-branch=main']);
  commitAll(dir, 'initial', w.now);
  return w;
}

/** A new image in every target's source, committed on main. */
export function bumpFleetImage(
  w: FlowWorld,
  tag: string,
  targets: readonly FleetTarget[] = Object.keys(OUTPUTS) as FleetTarget[],
): void {
  for (const t of targets) {
    const file = path.join(w.repo, 'web', 'built', t, 'all.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/agnhost:\S+/, `agnhost:${tag}`));
  }
  commitAll(w.repo, `web ${tag}`, w.now);
}

/** The targets whose outputs a PR's commit touches. */
export function touchedBy(w: FlowWorld, number: number): FleetTarget[] {
  const files = w.fake.changesOf(number).map((c) => c.path);
  return (Object.keys(OUTPUTS) as FleetTarget[]).filter((t) => files.some((f) => f.startsWith(OUTPUTS[t] + '/')));
}

/** The image tags a target's output runs (stable and canary). */
export function imagesOf(w: FlowWorld, t: FleetTarget): string[] {
  const out = path.join(w.repo, OUTPUTS[t]);
  if (!fs.existsSync(out)) return [];
  const text = fs
    .readdirSync(out)
    .map((f) => fs.readFileSync(path.join(out, f), 'utf8'))
    .join('\n');
  return [...new Set([...text.matchAll(/image: \S+:(\S+)/g)].map((m) => m[1]))].sort();
}

export interface Driven {
  /** Every rollgen PR merged, in order: its branch, title and the targets it touched. */
  readonly merged: { branch: string; title: string; targets: FleetTarget[] }[];
  readonly runs: FlowRun[];
}

export interface DriveOptions {
  /** Before each run (e.g. the GitOps engine posting health on main's head). */
  readonly before?: () => void;
  /** After each run; true stops the drive there. */
  readonly after?: (r: FlowRun) => boolean | void;
  /** Seconds between runs (default an hour: past every bake of the example). */
  readonly every?: number;
}

/**
 * Scheduled `rollgen pr` runs, a person merging each PR whose gate is manual, until a run changes
 * nothing and no PR is open (or `after` says stop).
 */
export async function driveFleet(w: FlowWorld, o: DriveOptions = {}, maxRuns = 80): Promise<Driven> {
  const merged: Driven['merged'] = [];
  const runs: FlowRun[] = [];
  const seen = new Set(w.fake.pulls.filter((p) => p.merged).map((p) => p.number));
  const record = () => {
    for (const p of w.fake.pulls)
      if (p.merged && !seen.has(p.number)) {
        seen.add(p.number);
        merged.push({ branch: p.branch, title: p.title, targets: touchedBy(w, p.number) });
      }
  };
  for (let i = 0; i < maxRuns; i++) {
    w.later(o.every ?? 3600);
    o.before?.();
    const r = await w.pr();
    runs.push(r);
    if (r.code !== 0) throw new Error(`rollgen pr failed (${r.code}):\n${r.stdout}\n${r.stderr}`);
    record();
    if (o.after?.(r)) return { merged, runs };
    const manual = w.fake.open().filter((p) => p.labels.includes('rollgen:manual'));
    for (const p of manual) w.merge(p.number);
    record();
    if (r.writes.length === 0 && manual.length === 0 && w.fake.open().length === 0) return { merged, runs };
  }
  throw new Error('the fleet never settled');
}

/** One wave of all three targets of examples/fleet (the wave-command tests). */
export const ONE_WAVE = `waves:
  - name: all
    select: {targets: ["web/*"]}
`;

/** examples/fleet as ONE_WAVE, adopted, a new image in `targets`, the wave's step 1 merged and its step-2 PR open. */
export async function oneWaveAtStep2(targets?: Parameters<typeof bumpFleetImage>[2]): Promise<FlowWorld> {
  const w = fleetFlowWorld((y) => y.replace(/^waves:[\s\S]*/m, ONE_WAVE));
  await driveFleet(w);
  bumpFleetImage(w, '2.54', targets);
  await driveFleet(w, { after: () => w.fake.open().some((p) => p.branch === 'rollgen/wave_3aall/step-2') });
  return w;
}

/** The status file a target's output holds. */
export const statusOf = (w: FlowWorld, t: FleetTarget): string =>
  fs.readFileSync(path.join(w.repo, OUTPUTS[t], 'rollgen-status.yaml'), 'utf8');
