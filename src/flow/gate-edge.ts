import { StateError } from '../errors';
import { readOutput } from '../app/inputs';
import { LoadedEntry } from '../app/load-repo';
import { GateSignals, countFrom, gateReport } from './gate-signals';
import { withSection } from './marker';
import { Proposal } from './proposal';
import { dueGates, runAnalysis } from './read-analysis';
import type { BaseHistory } from './history';
import { carryingCommits, readHealth } from './read-gates';
import { FlowSession, proposalFor } from './session';
import { readVerify } from './read-verify';

/**
 * Health, then analysis, of the step the base carries; undefined when the app has neither. The
 * analysis starts only once the step is live: landed, and reported healthy when a health gate is set.
 * `recent` is the base's newest commits (recentCommits), read once per run.
 */
export async function readSignals(
  s: FlowSession,
  entry: LoadedEntry,
  history: BaseHistory,
  recent: () => readonly string[],
  dryRun: boolean,
  next?: Proposal,
): Promise<GateSignals | undefined> {
  const policy = entry.loc.health;
  const gates = dueGates(entry.app.rollouts, readOutput(entry.loc, s.ctx.cwd).status);
  if (!policy && gates.length === 0 && !entry.loc.verify) return undefined;
  const shas = carryingCommits(recent(), history.landingSha);
  const health = policy ? await readHealth(s.scm, policy, shas, { env: s.edges.env, now: s.edges.now() }) : undefined;
  const verify = await readVerify({
    entry,
    cwd: s.ctx.cwd,
    env: s.edges.env,
    live: history.landedAt !== undefined && (!health || health.state === 'healthy'),
    ...(next ? { next: { changes: next.changes, repoRoot: s.checkout.root } } : {}),
  });
  const signals = { ...(health ? { health } : {}), ...(verify ? { verify } : {}) };
  const live = countFrom(history.landedAt, signals);
  if (gates.length === 0 || (health && health.state !== 'healthy') || !live || shas.length === 0) return signals;
  const analysis = await runAnalysis({
    scm: s.scm,
    app: entry.app.name,
    landing: shas[shas.length - 1],
    gates,
    startedAt: live,
    now: s.edges.now,
    env: s.edges.env,
    dryRun,
  });
  return { ...signals, analysis };
}

/** The step PR's body shows what its gate waits for and the measurements so far. */
export function withGateReport(p: Proposal, signals: GateSignals): Proposal {
  const report = gateReport(signals);
  if (!report) return p;
  return { ...p, body: withSection(p.body, report) };
}

/** The abort PR for a failed step; undefined when no rollout of the app is progressing (nothing to abort). */
export function abortProposal(s: FlowSession, entry: LoadedEntry): Proposal | undefined {
  try {
    return proposalFor(s, entry, { kind: 'abort' }, 'command');
  } catch (e) {
    if (e instanceof StateError) return undefined;
    throw e;
  }
}
