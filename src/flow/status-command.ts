import * as path from 'path';
import { RunContext } from '../app/context';
import { describeDrift, detectDrift } from '../app/drift';
import { locateWithRepo, usesConfig } from '../app/inputs';
import { formatFleetMatrix } from './fleet-status';
import { LoadedEntry } from '../app/load-repo';
import { ShardOptions, loadShardApps } from '../app/load-shard';
import { waveOf } from './fleet-proposal';
import { targetSlug } from './branch';
import type { RollgenPull } from './decide';
import { OutputOptions, isMachineOutput, printDocument } from '../app/output-format';
import { readAppOutput } from '../app/output-state';
import { commandTarget } from '../app/plan-write';
import { InputError } from '../errors';
import { gitTopLevel } from '../io/git';
import { processTicker, watchLoop } from '../io/watch';
import { KubeObject, isObject } from '../model/kube';
import { sourcePod } from '../state/pods';
import { formatStatusView } from '../state/status-format';
import { ContainerImage, ModeView, RenderedWorkload, RolloutView, rolloutView } from '../state/status-view';
import { CANARY_SUFFIX, REVISION_ANNOTATION } from '../model/track';
import { replicasOf } from '../render/workload';
import { flowModes } from './status-mode';
import { ConnectionFlags } from './connection';
import { flowEdges } from './edges';
import { BaseHistory, readAppHistories } from './history';
import { AppGitHub, offline, readGitHub } from './status-github';

export interface StatusOptions extends ShardOptions, OutputOptions, ConnectionFlags {
  /** Read the open PRs and the live step's health and analysis from GitHub. */
  readonly pr?: boolean;
  /** Refresh every N seconds (true: the default interval) until Ctrl-C. */
  readonly watch?: number | true;
}

export const DEFAULT_WATCH_SECONDS = 2;

/** `rollgen status`: where every rollout stands, once or (--watch) again and again, re-reading everything each round. */
export async function statusCommand(ctx: RunContext, args: readonly string[], opts: StatusOptions): Promise<void> {
  if (opts.watch === undefined) return void ctx.stdout(await statusText(ctx, args, opts));
  const seconds = opts.watch === true ? DEFAULT_WATCH_SECONDS : opts.watch;
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new InputError([], `--watch takes a number of seconds above 0 (got ${String(opts.watch)})`);
  const now = flowEdges(ctx).now;
  await watchLoop(ctx.ticker ?? processTicker(), seconds, ctx.stdout, async () => {
    const text = await statusText(ctx, args, opts);
    return isMachineOutput(opts) ? text : `every ${seconds}s, ${now().toISOString()} (Ctrl-C ends)\n\n${text}`;
  });
}

async function statusText(ctx: RunContext, args: readonly string[], opts: StatusOptions): Promise<string> {
  const { views, disabled, wavePulls } = await readViews(ctx, args, opts);
  if (!isMachineOutput(opts)) return withFleet(ctx, args, opts, views, formatStatusView(views, disabled), wavePulls);
  let text = '';
  printDocument({ stdout: (t) => (text += t) }, opts.output, 'Status', { rollouts: views, disabled });
  return opts.output === 'yaml' && opts.watch !== undefined ? `---\n${text}` : text;
}

/** A repository with waves: the fleet matrix after the rollouts (docs/fleet.md). */
function withFleet(
  ctx: RunContext,
  args: readonly string[],
  opts: StatusOptions,
  views: readonly RolloutView[],
  text: string,
  wavePulls?: ReadonlyMap<string, string>,
): string {
  const req = { cwd: ctx.cwd, args, ...opts };
  if (!usesConfig(req)) return text;
  const matrix = formatFleetMatrix(locateWithRepo(req).waves, views, wavePulls);
  return matrix ? `${text}\n${matrix}` : text;
}

async function readViews(
  ctx: RunContext,
  args: readonly string[],
  opts: StatusOptions,
): Promise<{ views: RolloutView[]; disabled: string[]; wavePulls?: Map<string, string> }> {
  const edges = flowEdges(ctx);
  const apps = await loadShardApps(ctx, args, opts);
  const byName = usesConfig({ cwd: ctx.cwd, args, ...opts });
  const histories = baseHistories(ctx, apps);
  let wavePulls: Map<string, string> | undefined;
  const scanned = (pulls: ReadonlyMap<string, readonly RollgenPull[]>) => (wavePulls = openWavePulls(pulls));
  const github = opts.pr ? await readGitHub(ctx, apps, histories, opts, scanned) : apps.map(() => offline());
  const now = edges.now();
  const git = edges.git;
  const modes = flowModes(
    git,
    gitTopLevel(git, ctx.cwd),
    apps.map((a, i) => ({ output: a.loc.output, landingSha: histories[i].landingSha })),
    opts.pr === true,
  );
  const views = apps.flatMap((entry, i) => appViews(ctx, entry, byName, histories[i], github[i], now, modes[i]));
  const disabled = apps.flatMap(({ app }) =>
    app.disabledRollouts
      ? [
          `${app.name}: ${app.disabledRollouts} disabled rollout(s) (spec.disabled): their workloads roll out as plain Deployments`,
        ]
      : [],
  );
  return { views, disabled, ...(wavePulls ? { wavePulls } : {}) };
}

/** Each wave's open PR, as the matrix shows it: `#12 step 2` (fleet-pr.ts files them under `wave:<name>`). */
function openWavePulls(pulls: ReadonlyMap<string, readonly RollgenPull[]>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [app, list] of pulls) {
    const wave = waveOf(app);
    const open = list.find((x) => x.pr.state === 'open');
    if (wave !== undefined && open) out.set(wave, `${open.pr.ref} ${targetSlug(open.target).replace('-', ' ')}`);
  }
  return out;
}

function appViews(
  ctx: RunContext,
  { loc, app }: LoadedEntry,
  byName: boolean,
  history: BaseHistory,
  github: AppGitHub,
  now: Date,
  mode: ModeView,
): RolloutView[] {
  const output = readAppOutput(ctx, loc, app);
  const drift = describeDrift(detectDrift(app, loc, output), loc, ctx.cwd);
  const target = commandTarget(ctx.cwd, loc, byName);
  return app.rollouts.map((r) => {
    const status = output.status?.rollouts.find((x) => x.name === r.spec.name);
    const deployment = (name: string) => output.resources.find('Deployment', name, r.spec.namespace)?.object;
    return rolloutView({
      app: app.name,
      ...(r.spec.namespace ? { namespace: r.spec.namespace } : {}),
      target,
      plan: r.plan,
      status,
      sourceRevision: sourcePod(r, loc.track).revision,
      workloads: {
        stable: renderedWorkload(deployment(r.spec.workload.name)),
        canary: renderedWorkload(deployment(`${r.spec.workload.name}${CANARY_SUFFIX}`)),
      },
      sourceImages: imagesOf(r.deployment),
      mode,
      landedAt: github.countFrom ?? history.landedAt,
      now,
      signals: github.signals,
      github: github.view,
      drift,
    });
  });
}

/** What a Deployment of the output runs: its images, its rollgen revision and its replicas; null when it is not there. */
function renderedWorkload(d: KubeObject | undefined): RenderedWorkload | null {
  if (!d) return null;
  const revision = d.metadata.annotations?.[REVISION_ANNOTATION];
  return { images: imagesOf(d), revision: typeof revision === 'string' ? revision : null, replicas: replicasOf(d) };
}

/** The containers of a Deployment's pod template and their images. */
function imagesOf(d: KubeObject): ContainerImage[] {
  const spec =
    isObject(d.spec) && isObject(d.spec.template) && isObject(d.spec.template.spec) ? d.spec.template.spec : {};
  const list = Array.isArray(spec.containers) ? spec.containers : [];
  return list.filter(isObject).map((c) => ({ container: String(c.name ?? ''), image: String(c.image ?? '') }));
}

/** When and by which commit each app's state landed (nothing outside git). */
function baseHistories(ctx: RunContext, apps: readonly LoadedEntry[]): BaseHistory[] {
  const git = flowEdges(ctx).git;
  const top = gitTopLevel(git, ctx.cwd);
  const outputs = apps.map((a) => a.loc.output);
  if (!top || outputs.some((o) => !o)) return apps.map(() => ({}));
  try {
    const paths = outputs.map((o) => ({ source: path.resolve(o!), output: path.resolve(o!) }));
    return readAppHistories(git, top, paths);
  } catch {
    return apps.map(() => ({})); // no commit yet: nothing has landed
  }
}
