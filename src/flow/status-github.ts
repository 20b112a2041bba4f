import type { RunContext } from '../app/context';
import type { LoadedEntry } from '../app/load-repo';
import { readOutput } from '../app/inputs';
import { gitTopLevel } from '../io/git';
import type { HealthPolicy } from '../io/config';
import type { CheckRun, ScmClient } from '../scm/types';
import type { GateSignalsView, GitHubView } from '../state/status-view';
import { checkRunName } from './analysis-store';
import { BRANCH_PREFIX, targetSlug } from './branch';
import { readConnection, withoutToken, ConnectionFlags } from './connection';
import { RollgenPull, groupPulls } from './decide';
import { FlowEdges, flowEdges } from './edges';
import type { Health } from './health';
import { AnalysisGate, GateSignals, countFrom } from './gate-signals';
import { dueGates } from './read-analysis';
import type { BaseHistory } from './history';
import { carryingCommits, readHealth, recentCommits } from './read-gates';
import { readVerify } from './read-verify';

/** What `status --pr` reads from GitHub for one app: its open PRs and the live step's health and analysis. */
export interface AppGitHub {
  readonly view: GitHubView;
  readonly signals: GateSignalsView | null;
  /** When a timed gate starts counting, as the PR flow counts it (countFrom): the landing, or a later health success or passed analysis. */
  readonly countFrom?: Date;
}

export function offline(): AppGitHub {
  return {
    view: {
      looked: false,
      why: 'offline; `rollgen status --pr` with GITHUB_TOKEN and GITHUB_REPOSITORY reads the open PRs',
    },
    signals: null,
  };
}

/**
 * One scan of the open rollgen PRs for every app, then per app the health and the analysis record
 * of the step its output carries: reads only, as the PR flow left them (it writes the records).
 */
export async function readGitHub(
  ctx: RunContext,
  apps: readonly LoadedEntry[],
  histories: readonly BaseHistory[],
  flags: ConnectionFlags,
  /** Told what the one scan found (the fleet matrix shows each wave's PR from it). */
  onScan?: (pulls: ReadonlyMap<string, readonly RollgenPull[]>) => void,
): Promise<AppGitHub[]> {
  const edges = flowEdges(ctx);
  const connection = readConnection(edges.env, flags);
  return withoutToken(connection.token, async () => {
    const scm = edges.scm(connection);
    const pulls = groupPulls(await scm.listPulls({ prefix: BRANCH_PREFIX, state: 'open' }));
    onScan?.(pulls);
    const top = gitTopLevel(edges.git, ctx.cwd);
    const recent = top ? recentCommits(edges.git, top) : () => [];
    const out: AppGitHub[] = [];
    for (const [i, entry] of apps.entries()) {
      const open = (pulls.get(entry.app.name) ?? []).filter((p) => p.pr.state === 'open');
      const view: GitHubView = {
        looked: true,
        forge: connection.forge ?? 'github',
        pulls: open.map(({ pr, target }) => ({
          number: pr.number,
          url: pr.url,
          title: pr.title,
          does: targetSlug(target).replace('-', ' '),
          ref: pr.ref,
        })),
      };
      const { landedAt, landingSha } = histories[i];
      const read = top && landedAt ? await readSignals(ctx, scm, edges, entry, landingSha, recent) : undefined;
      const from = countFrom(landedAt, read?.gate);
      out.push({ view, signals: read?.view ?? null, ...(from ? { countFrom: from } : {}) });
    }
    return out;
  });
}

async function readSignals(
  ctx: RunContext,
  scm: ScmClient,
  edges: FlowEdges,
  { loc, app }: LoadedEntry,
  landingSha: string | undefined,
  recent: () => readonly string[],
): Promise<{ view: GateSignalsView; gate: GateSignals } | undefined> {
  const gates = dueGates(app.rollouts, readOutput(loc, ctx.cwd).status);
  if (!loc.health && gates.length === 0 && !loc.verify) return undefined;
  const shas = carryingCommits(recent(), landingSha);
  if (shas.length === 0) return undefined;
  const health = loc.health ? await healthOf(scm, loc.health, shas, edges) : undefined;
  const live = !health || health.state === 'healthy';
  const verify = await readVerify({ entry: { loc, app }, cwd: ctx.cwd, env: edges.env, live });
  const run = gates.length > 0 ? latest(await scm.checkRuns(shas[shas.length - 1], checkRunName(app.name))) : undefined;
  const analysis = gates.length > 0 ? analysisView(run) : null;
  const passedAt = analysis?.verdict === 'successful' && run?.completedAt ? new Date(run.completedAt) : undefined;
  return {
    view: {
      health: health ? healthView(health) : null,
      analysis,
      ...(verify ? { verify: { weights: verify.weights ?? null, targetGroupIPs: verify.targetGroupIPs ?? null } } : {}),
    },
    gate: { ...(health ? { health } : {}), ...(passedAt ? { analysis: passedAnalysis(analysis!, passedAt) } : {}) },
  };
}

/** A passed analysis as countFrom reads it: only when it ended matters to the timed gate after it. */
function passedAnalysis(view: NonNullable<GateSignalsView['analysis']>, passedAt: Date): AnalysisGate {
  return { verdict: 'successful', reason: view.detail, report: '', blocking: false, passedAt };
}

const latest = (runs: readonly CheckRun[]) => [...runs].sort((a, b) => b.id - a.id)[0];

function healthOf(scm: ScmClient, policy: HealthPolicy, shas: readonly string[], edges: FlowEdges): Promise<Health> {
  return readHealth(scm, policy, shas, { env: edges.env, now: edges.now() });
}

function healthView(h: Health): GateSignalsView['health'] {
  switch (h.state) {
    case 'healthy':
      return { state: h.state, detail: `reported on ${h.sha.slice(0, 12)} at ${h.since.toISOString()}` };
    case 'waiting':
      return { state: h.state, detail: `awaiting ${h.awaited.join(', ')}` };
    case 'failed':
      return { state: h.state, detail: `${h.reasons.join('; ')} on ${h.sha.slice(0, 12)}` };
  }
}

const CONCLUDED: Readonly<Record<string, string>> = { success: 'successful', action_required: 'inconclusive' };

/** The verdict the PR flow wrote on the landing commit's check run; pending when no run measured yet. */
function analysisView(run: CheckRun | undefined): GateSignalsView['analysis'] {
  if (!run) return { verdict: 'pending', detail: 'nothing measured yet; the next `rollgen pr` starts the analysis' };
  // runState (analysis-store.ts) in reverse: what the flow wrote for each verdict.
  const verdict = run.status !== 'completed' ? 'running' : (CONCLUDED[run.conclusion ?? ''] ?? 'failed');
  return { verdict, detail: run.output?.title ?? run.name };
}
