import { sourceChanged } from './status-gate';
import { GateView, NextCommand, StatusInput, ViewPhase } from './status-types';

/**
 * The `Next:` of `rollgen status`: the commands that move a rollout on, the safe one first, each
 * saying what it does in the mode the user is in (README "Status"). Plain `advance` moves at once
 * (the person running it is the gate); `advance --commit` holds at a pause that has not passed and
 * `promote --commit` passes it; in the PR flow `rollgen pr` opens the step's PR and merges it once
 * its gate passes. Pure.
 */
export function commandsFor(
  phase: ViewPhase,
  i: StatusInput,
  gate: GateView | null,
): { next: NextCommand | null; others: NextCommand[] } {
  const run = commandIn(i);
  const abort = run('abort', 'routes all traffic to stable and removes the canary');
  switch (phase) {
    case 'Held':
      return {
        next: null,
        others: i.status?.phase === 'Progressing' ? [run('promote', 'moves it one step by hand'), abort] : [],
      };
    case 'NotDeployed':
      return { next: run('advance', 'adopts the Deployment (first deploy)'), others: [] };
    case 'Adopting':
      return { next: run('advance', 'switches the Service selectors to the track label'), others: [] };
    case 'Draining':
      return { next: run('advance', 'removes the canary workloads'), others: [] };
    case 'Promoting': {
      // Ping-pong: the canary's Service already has all traffic; clean-up makes it the stable one.
      const cleanUp = i.plan.pingPong
        ? 'cleans up: the stable pods take the new version and the two Services swap roles, canary removed'
        : 'cleans up: routes to stable only, canary removed';
      const then = sourceChanged(i) ? '; the advance after starts the new revision at step 1' : '';
      return { next: run('advance', `${cleanUp}${then}`), others: [] };
    }
    case 'Healthy':
      return i.status && sourceChanged(i)
        ? { next: run('advance', 'starts the rollout at step 1'), others: [] }
        : { next: null, others: [] };
    case 'Aborted':
      return sourceChanged(i)
        ? { next: run('advance', 'starts the new revision at step 1'), others: [] }
        : { next: run('retry', 'restarts it at step 1'), others: [] };
    case 'Paused': {
      const p = paused(i, gate, run);
      return { next: p.next, others: [...p.others, abort] };
    }
    case 'Progressing':
      return { next: moveOn(i, gate, run), others: [abort] };
  }
}

type Run = (command: 'advance' | 'abort' | 'promote' | 'retry', does: string, wait?: number) => NextCommand;

/** The command line in the user's mode; `wait` seconds first (`sleep N && ...`) where a gate has time left. */
function commandIn(i: StatusInput): Run {
  return (command, does, wait) => {
    const line =
      i.mode.name === 'local'
        ? `rollgen ${command} ${i.target}`
        : i.mode.name === 'commit'
          ? `rollgen ${command} ${i.target} --commit`
          : command === 'advance'
            ? `rollgen pr ${i.target}`
            : `rollgen ${command} ${i.target} --pr`;
    // In the PR flow every command opens a PR (rollgen pr opens the step's own): what it does lands when it is merged.
    const viaPr = i.mode.name === 'pr' && !does.startsWith('opens');
    const told = !viaPr
      ? does
      : `opens or updates ${command === 'advance' ? 'the PR' : 'a PR'} that ${does}; merging it applies it`;
    return { command: wait ? `sleep ${wait} && ${line}` : line, does: told };
  };
}

/** The next step's gate has passed (or only health or analysis hold it). */
function moveOn(i: StatusInput, gate: GateView | null, run: Run): NextCommand {
  const before = gate?.before ?? 'the next step';
  if (i.mode.name === 'pr')
    return run('advance', `opens or updates the ${before} PR; rollgen merges it once its gate and checks pass`);
  return run('advance', `moves to ${before}`);
}

/** A manual gate, or a timed one with time left: waiting (or the person's approval) first, passing it after. */
function paused(i: StatusInput, gate: GateView | null, run: Run): { next: NextCommand; others: NextCommand[] } {
  const before = gate?.before ?? 'the next step';
  const left = gate?.kind === 'timed' ? gate.remaining : null;
  const mode = i.mode.name;
  if (mode === 'pr') {
    const merged =
      gate?.kind === 'manual'
        ? 'merging it is the approval; rollgen never merges it'
        : left
          ? `rollgen merges it once the ${left}s left have passed and its checks are green`
          : 'rollgen merges it once its gate has passed and its checks are green';
    return {
      next: run('advance', `opens or updates the ${before} PR; ${merged}`),
      others: [run('promote', `moves to ${before} without waiting for the gate`)],
    };
  }
  if (mode === 'local') {
    const now = run('advance', `moves to ${before} at once: without --commit, you are the gate`);
    if (!left) return { next: now, others: [] };
    return { next: run('advance', `moves to ${before} once the gate's ${left}s are up`, left), others: [now] };
  }
  const promote = run('promote', `moves to ${before} now, passing the gate`);
  if (gate?.kind !== 'timed') return { next: promote, others: [] };
  const after = left
    ? run('advance', `moves to ${before} once the gate's ${left}s are up (before that, advance --commit holds)`, left)
    : run('advance', `moves to ${before} once the gate's ${gate.seconds}s have passed since this step's commit`);
  return { next: after, others: [promote] };
}
