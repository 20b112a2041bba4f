import { StateError } from '../errors';
import { readOutput } from '../app/inputs';
import { RunContext } from '../app/context';
import { LoadedEntry } from '../app/load-repo';
import { AppCommand } from '../state/app-state';
import { appIdleLines } from '../state/messages';
import { BRANCH_PREFIX } from './branch';
import { readConnection, withoutToken } from './connection';
import { AppFlowState, decide, groupPulls } from './decide';
import { flowEdges } from './edges';
import { execute, pullEvent } from './execute';
import { mergeOrSchedule } from './merge';
import { Proposal } from './proposal';
import { previewOffline } from './offline';
import { FlowOptions, LocalSession, executeOptions, openSession, proposalFor } from './session';
import { isWaveCommand, supersededTargetPulls, waveCommandState } from './wave-command';

export interface ChangePrOptions extends FlowOptions {
  /** Merge the PR at once: the person running the command is the approval. */
  readonly merge?: boolean;
}

/**
 * `abort|promote [--full]|retry APP --pr`: open (or update) the PR that the command would commit,
 * closing the app's step PR it supersedes; with --merge, merge it at once. `retry` on an app held
 * by a closed step PR opens that step's PR again. `abort|promote|retry --wave W` is one PR for the wave.
 */
export async function changePr(
  ctx: RunContext,
  args: readonly string[],
  opts: ChangePrOptions,
  command: AppCommand,
): Promise<void> {
  const wave = isWaveCommand(command, opts.wave) ? opts.wave : undefined;
  if (opts.offline)
    return previewOffline(ctx, args, opts, (s, entries) =>
      wave !== undefined
        ? entries.map((_, i) => (i === 0 ? waveCommandState(s, wave, command).state.proposal : undefined))
        : entries.map((entry) => commandState(s, entry, command).proposal),
    );
  await withoutToken(readConnection(flowEdges(ctx).env, opts).token, async () => {
    const s = await openSession(ctx, args, opts);
    // `abort|promote|retry --wave W`: one PR for the wave (wave-command.ts); otherwise one per app or target.
    const waveRun = wave !== undefined ? waveCommandState(s, wave, command) : undefined;
    const states = waveRun ? [waveRun.state] : s.apps.map((entry) => commandState(s, entry, command));
    const pulls = groupPulls(await s.scm.listPulls({ prefix: BRANCH_PREFIX, state: 'all' }));
    const o = executeOptions(s, opts.dryRun === true);
    for (const state of states) {
      const own = decide(state, pulls.get(state.app) ?? [], s.edges.now(), {});
      const actions = waveRun ? [...own, ...supersededTargetPulls(waveRun.moving, pulls)] : own;
      const pr = await execute(s.scm, state.app, actions, o);
      if (!opts.merge) continue;
      if (o.dryRun) o.print(`${state.app}: would merge ${pr ? pr.ref : 'the new PR'} (--merge)`);
      if (o.dryRun || !pr) continue;
      // The PR to merge is the one this command proposes: `live` may be another PR the app waits on
      // (an open abort PR while retry runs), which --merge must never land in its place.
      if (pr.branch !== state.proposal?.branch || pr.state !== 'open')
        throw new StateError(
          `${state.app}: not merged: ${pr.ref} (${pr.branch}) is not the open PR of this ${command.kind}; merge or close it first`,
        );
      const scheduled = await mergeOrSchedule(s.scm, pr, o.mergeMethod);
      if (scheduled !== undefined) {
        o.print(`${state.app}: ${pr.ref} not merged yet (--merge): ${scheduled}`);
        continue;
      }
      o.print(`${state.app}: merged ${pr.ref} (--merge)`);
      o.report?.(pullEvent(state.app, 'merged', pr));
    }
  });
}

function commandState(s: LocalSession, entry: LoadedEntry, command: AppCommand): AppFlowState {
  const app = entry.app.name;
  const proposal =
    command.kind === 'retry' && !isAborted(s, entry) ? retryHeld(s, entry) : proposalFor(s, entry, command, 'command');
  if (!proposal)
    throw new StateError(
      // The PR flow always names apps of rollgen.yaml.
      appIdleLines(command, entry.loc.name, entry.app, readOutput(entry.loc, s.ctx.cwd).status, entry.loc.track).join(
        '\n',
      ),
    );
  return { app, proposal, ignoreHold: true };
}

/** A rollout that is not aborted can only be held by a closed step PR: retry proposes that step again, as the flow would. */
function retryHeld(s: LocalSession, entry: LoadedEntry): Proposal {
  const p = proposalFor(s, entry, { kind: 'advance' }, 'flow');
  if (!p)
    throw new StateError(`${entry.app.name}: nothing to retry; the rollout is neither aborted nor waiting for a step`);
  return p;
}

function isAborted(s: LocalSession, entry: LoadedEntry): boolean {
  return readOutput(entry.loc, s.ctx.cwd).status?.rollouts.some((r) => r.phase === 'Aborted') ?? false;
}
