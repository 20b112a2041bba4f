import type { Action, AppFlowState, RollgenPull } from './decide';
import type { Marker } from './marker';
import type { Proposal } from './proposal';

/**
 * A person closed the abort PR of a failed step unmerged (`onFailure: hold`): "keep the canary".
 * `failing`: the step fails now (then any abort PR a person closed counts, as it always did).
 * That holds the app at this step, whatever its health says later, as a failed analysis does:
 * a failure is terminal for the revision and step it was about, and a recovery is not a person's
 * approval. The hold ends with a new revision, `retry APP --pr` (a PR newer than the abort PR),
 * `abort APP --pr`, or a step landing after the close (a person merged one by hand). Pure.
 */
export function abortHold(
  app: AppFlowState,
  abort: Proposal | undefined,
  pulls: readonly RollgenPull[],
  landedAt: Date | undefined,
  failing: boolean,
): RollgenPull | undefined {
  const closed = newestAbort(pulls);
  if (!abort || !closed || !closedByPerson(closed)) return undefined;
  // An abort a person asked for (`abort --pr`) and then closed is no "keep the canary" after a failure.
  if (!closed.marker!.failure && !failing) return undefined;
  if (!sameCanary(closed.marker, abort.marker)) return undefined;
  // The step on the base landed after the close: the abort PR was about an earlier step.
  if (landedAt && closed.pr.closedAt && landedAt > new Date(closed.pr.closedAt)) return undefined;
  // A PR opened after the abort PR (retry or abort --pr) is a person's next word.
  if (pulls.some((x) => x.pr.state === 'open' && x.pr.number > closed.pr.number)) return undefined;
  // A new revision of the source is a new proposal, not the canary the person kept.
  if (app.proposal && !revisionsOf(app.proposal.marker).every((r) => revisionsOf(closed.marker!).includes(r)))
    return undefined;
  return closed;
}

/** The app's newest abort PR (groupPulls lists them newest first). */
export function newestAbort(pulls: readonly RollgenPull[]): RollgenPull | undefined {
  return pulls.find((x) => x.target.kind === 'abort');
}

/** Closed unmerged by a person (rollgen marks the PRs it closes itself). */
export function closedByPerson(x: RollgenPull): boolean {
  return x.pr.state === 'closed' && !x.pr.merged && x.marker !== undefined && x.marker.closedBy !== 'rollgen';
}

/** The hold's actions: one note on the closed abort PR, then a wait that says how to go on. */
export function holdActions(app: string, closed: RollgenPull, why: string | undefined): Action[] {
  const note: Action[] = closed.marker!.noted ? [] : [{ kind: 'note-hold', pr: closed.pr, marker: closed.marker! }];
  const held = `held: ${closed.pr.ref} was closed unmerged; \`rollgen retry ${app} --pr\` resumes, \`rollgen abort ${app} --pr\` aborts`;
  return [...note, { kind: 'wait', pr: closed.pr, reason: why ? `${why}; ${held}` : held }];
}

function sameCanary(m: Marker | undefined, abort: Marker): boolean {
  return m !== undefined && m.revision === abort.revision && m.stable === abort.stable;
}

/** Each moving rollout's canary and stable revision, as the marker lists them (comma-joined, same order). */
function revisionsOf(m: Marker): string[] {
  const stable = m.stable.split(',');
  return m.revision.split(',').map((r, i) => `${r}/${stable[i] ?? ''}`);
}
