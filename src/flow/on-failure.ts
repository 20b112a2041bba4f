import type { OnFailure } from '../io/config';
import { abortHold, closedByPerson, holdActions } from './abort-hold';
import { Action, AppFlowState, RollgenPull, decide } from './decide';
import { gateFailure } from './gate-signals';
import { parseMarker, withMarker, withSection } from './marker';
import { Proposal } from './proposal';

/**
 * decide() for an app whose step failed (health failure, analysis failed or errored). As Argo
 * aborts a rollout on a failed AnalysisRun, rollgen opens the abort PR, with the reason and the
 * measurements in its body, and merges it itself; with `onFailure: hold` it opens the PR for a
 * person and merges nothing. A person who closes that abort PR unmerged holds the app (abort-hold.ts),
 * even once the step's health recovers. `abort` is undefined when there is no live canary to abort:
 * then the app only waits. Returns undefined when the step has not failed and is not held, so the
 * caller decides as usual. `landedAt`: when the step on the base landed. Pure.
 */
export function decideOnFailure(
  app: AppFlowState,
  abort: Proposal | undefined,
  onFailure: OnFailure,
  pulls: readonly RollgenPull[],
  now: Date,
  landedAt?: Date,
  /** Why the abort, which scales pods down, may not merge yet (the target groups lack pod IPs). */
  scaleDownWait?: string,
): Action[] | undefined {
  const why = gateFailure(app.signals);
  const held = abortHold(app, abort, pulls, landedAt, why !== undefined);
  if (held) return holdActions(app.app, held, why);
  if (!why) return undefined;
  if (!abort) return [{ kind: 'wait', reason: `${why}; no canary is live, so there is nothing to abort` }];
  const proposal = withFailureReport(abort, why, onFailure, app.signals?.analysis?.report);
  // An abort PR a person closed that no longer holds (an earlier step, or before a retry) is no
  // rejection of this failure: it gets its own abort PR.
  const live = pulls.filter((x) => x.target.kind !== 'abort' || !closedByPerson(x));
  const actions = decide({ app: app.app, proposal }, live, now, {});
  const mine = (a: Action) => 'pr' in a && a.pr?.branch === proposal.branch;
  if (onFailure === 'hold') {
    const told = actions.map((a) =>
      a.kind === 'wait' && mine(a) && a.pr!.state === 'open'
        ? { ...a, reason: `${why}: a person merges the abort PR ${a.pr!.ref} (onFailure: hold)` }
        : a,
    );
    return told.some((a) => a.kind === 'wait')
      ? told
      : [...told, { kind: 'wait', reason: `${why}: the abort PR waits for a person (onFailure: hold)` }];
  }
  let merging = false;
  const unverified = scaleDownWait ? `${why}; the abort waits: ${scaleDownWait}` : undefined;
  return actions.flatMap((a): Action[] => {
    if (a.kind === 'open' || (a.kind === 'update' && a.proposal.branch === proposal.branch)) {
      merging = true;
      return [a, unverified ? { kind: 'wait', reason: unverified } : { kind: 'merge-opened', reason: why }];
    }
    if (a.kind !== 'wait' || !mine(a) || a.pr!.state !== 'open') return [a];
    if (merging) return [];
    if (unverified) return [{ ...a, reason: unverified }];
    // The abort PR is open and up to date: merge it, unless someone pushed to it (then it is theirs).
    return parseMarker(a.pr!.body)?.head === a.pr!.headSha
      ? [{ kind: 'merge', pr: a.pr! }]
      : [{ ...a, reason: `${why}; ${a.pr!.ref} has commits rollgen did not make: a person merges it` }];
  });
}

/** The abort PR's body says why and shows the measurements, above the marker, which records the failure. */
function withFailureReport(p: Proposal, why: string, onFailure: OnFailure, report: string | undefined): Proposal {
  const head =
    onFailure === 'hold'
      ? `**rollgen proposes to abort: ${why}.** Merge this PR to abort, or close it to keep the canary (onFailure: hold).`
      : `**rollgen aborts: ${why}.**`;
  const marker = { ...p.marker, failure: true as const };
  const body = withSection(p.body, [head, ...(report ? ['', report] : [])].join('\n'));
  return { ...p, marker, body: withMarker(body, marker) };
}
