import { Target, branchName, targetSlug } from '../../src/flow/branch';
import { Action, AppFlowState, AppHistory, decide, groupPulls } from '../../src/flow/decide';
import { Marker, withMarker } from '../../src/flow/marker';
import { decideOnFailure } from '../../src/flow/on-failure';
import { Proposal } from '../../src/flow/proposal';
import { Gate } from '../../src/model/plan';
import { CheckState, PullRequest } from '../../src/scm/types';

const NOW = new Date('2026-03-01T12:00:00Z');
const LANDED = { landedAt: new Date('2026-03-01T11:50:00Z') }; // 600s before NOW

function proposal(target: Target, gate: Gate, over: Partial<Marker> = {}): Proposal {
  const marker: Marker = {
    v: 1,
    app: 'echo',
    target: targetSlug(target),
    revision: 'r2',
    stable: 'r1',
    digest: 'd1',
    origin: 'flow',
    ...over,
  };
  const title = `rollgen(echo): ${marker.target}`;
  return {
    app: 'echo',
    target,
    branch: branchName('echo', target),
    gate,
    marker,
    title,
    body: withMarker('Body', marker),
    labels: ['rollgen', `rollgen:${gate.kind}`],
    message: 'm',
    changes: [{ path: 'deploy/echo/x.yaml', content: 'x' }],
  };
}

let n = 0;
/** The PR as GitHub would return it after rollgen opened it for `p`, changed by `over`. */
function pull(p: Proposal, over: Partial<PullRequest> = {}, marker: Partial<Marker> = {}): PullRequest {
  n += 1;
  // rollgen's own commit is the head unless a test says otherwise (a person's push).
  const headSha = over.headSha ?? `sha${n}`;
  return {
    number: n,
    url: `u/${n}`,
    ref: `#${n}`,
    branch: p.branch,
    base: 'main',
    state: 'open',
    merged: false,
    title: p.title,
    body: withMarker('Body', { ...p.marker, head: headSha, ...marker }),
    labels: [...p.labels],
    ...over,
    headSha,
  };
}

function run(
  state: AppFlowState,
  pulls: PullRequest[],
  checks?: Map<string, CheckState>,
  history: AppHistory = LANDED,
): Action[] {
  return decide(state, groupPulls(pulls).get('echo') ?? [], NOW, history, checks);
}
const kinds = (actions: Action[]) => actions.map((a) => a.kind);
const step = (k: number): Target => ({ kind: 'step', step: k });
const manual: Gate = { kind: 'manual' };
const automatic: Gate = { kind: 'automatic' };

test('start (or the previous step landed): no PR on the branch -> open', () => {
  const p = proposal(step(1), manual);
  expect(run({ app: 'echo', proposal: p }, [])).toEqual([{ kind: 'open', proposal: p }]);
});

test('the previous step landed: its merged PR is history, the next step opens and nothing else is touched', () => {
  const prev = proposal(step(1), manual, { revision: 'r2' });
  const p = proposal(step(2), manual);
  expect(
    kinds(
      run({ app: 'echo', proposal: p }, [
        pull(prev, { state: 'closed', merged: true, mergedAt: '2026-03-01T11:50:00Z' }),
      ]),
    ),
  ).toEqual(['open']);
});

test('unchanged: a manual step only waits, with no write and no checks', () => {
  const p = proposal(step(2), manual);
  const actions = run({ app: 'echo', proposal: p }, [pull(p)]);
  expect(actions).toMatchObject([{ kind: 'wait', reason: expect.stringMatching(/manual gate: a person merges #\d+/) }]);
});

test('manual steps are never merged, even with green checks and long past any time', () => {
  const p = proposal(step(2), manual);
  const pr = pull(p);
  expect(
    kinds(run({ app: 'echo', proposal: p }, [pr], new Map([[pr.headSha, 'success']]), { landedAt: new Date(0) })),
  ).toEqual(['wait']);
});

test('content changed (new revision or base under the files): one commit and an update of the same PR', () => {
  const p = proposal(step(1), manual, { revision: 'r3', digest: 'd2' });
  const pr = pull(p, {}, { revision: 'r2', digest: 'd1' });
  const [a] = run({ app: 'echo', proposal: p }, [pr]);
  expect(a).toMatchObject({ kind: 'update', commit: true, fields: { body: p.body } });
});

test('only title or labels differ: the PR is updated without a commit; labels a person added stay', () => {
  const p = proposal(step(3), { kind: 'timed', seconds: 60 });
  const pr = pull(p, { title: 'old', labels: ['hold-on', 'rollgen', 'rollgen:manual'] });
  const [a] = run({ app: 'echo', proposal: p }, [pr]);
  expect(a).toEqual({
    kind: 'update',
    pr,
    proposal: p,
    commit: false,
    fields: { title: p.title, labels: ['hold-on', 'rollgen', 'rollgen:timed'] },
  });
});

test('timed gate not passed: wait until the time counted from the landing, without asking for checks', () => {
  const p = proposal(step(3), { kind: 'timed', seconds: 601 });
  expect(run({ app: 'echo', proposal: p }, [pull(p)])).toMatchObject([
    { kind: 'wait', reason: expect.stringContaining('may merge from 2026-03-01T12:00:01.000Z') },
  ]);
});

test('timed gate without a landing in git history waits rather than guessing', () => {
  const p = proposal(step(3), { kind: 'timed', seconds: 1 });
  expect(run({ app: 'echo', proposal: p }, [pull(p)], undefined, {})).toMatchObject([
    { kind: 'wait', reason: expect.stringContaining('not in the git history') },
  ]);
});

test.each([
  ['timed, passed', { kind: 'timed', seconds: 600 } as Gate],
  ['automatic', automatic],
])('%s: checks unknown -> ask; pending or failing -> wait; green -> merge', (_name, gate) => {
  const p = proposal(step(3), gate);
  const pr = pull(p);
  expect(run({ app: 'echo', proposal: p }, [pr])).toEqual([{ kind: 'need-checks', pr }]);
  expect(run({ app: 'echo', proposal: p }, [pr], new Map([[pr.headSha, 'pending']]))).toMatchObject([
    { kind: 'wait', reason: expect.stringContaining('pending') },
  ]);
  expect(run({ app: 'echo', proposal: p }, [pr], new Map([[pr.headSha, 'failure']]))).toMatchObject([
    { kind: 'wait', reason: expect.stringContaining('failing') },
  ]);
  expect(run({ app: 'echo', proposal: p }, [pr], new Map([[pr.headSha, 'success']]))).toEqual([{ kind: 'merge', pr }]);
});

test('closed unmerged by a person: hold with one note, then hold silently', () => {
  const p = proposal(step(2), manual);
  const closed = pull(p, { state: 'closed', closedAt: '2026-03-01T11:55:00Z' });
  expect(kinds(run({ app: 'echo', proposal: p }, [closed]))).toEqual(['note-hold', 'wait']);
  const noted = pull(p, { state: 'closed' }, { noted: true });
  expect(run({ app: 'echo', proposal: p }, [noted])).toMatchObject([
    { kind: 'wait', reason: expect.stringMatching(/^held: #\d+ was closed without merging/) },
  ]);
});

test('a new revision after a hold opens its own PR; retry (ignoreHold) opens the step again', () => {
  const held = pull(proposal(step(2), manual), { state: 'closed' }, { noted: true });
  const restart = proposal(step(1), manual, { revision: 'r3' });
  expect(kinds(run({ app: 'echo', proposal: restart }, [held]))).toEqual(['open']);
  const sameStep = proposal(step(2), manual);
  expect(kinds(run({ app: 'echo', proposal: sameStep, ignoreHold: true }, [held]))).toEqual(['open']);
  // The same step of another revision on the same branch is not the rejected proposal either.
  expect(kinds(run({ app: 'echo', proposal: proposal(step(2), manual, { revision: 'r9' }) }, [held]))).toEqual([
    'open',
  ]);
});

test('a PR rollgen closed itself (superseded) is no rejection', () => {
  const p = proposal(step(2), manual);
  expect(kinds(run({ app: 'echo', proposal: p }, [pull(p, { state: 'closed' }, { closedBy: 'rollgen' })]))).toEqual([
    'open',
  ]);
});

test('a new proposal on another branch opens and closes the superseded step PR', () => {
  const old = pull(proposal(step(3), automatic));
  const p = proposal(step(1), manual, { revision: 'r3' });
  expect(run({ app: 'echo', proposal: p }, [old])).toEqual([
    { kind: 'open', proposal: p },
    { kind: 'close', pr: old, why: 'superseded', marker: expect.objectContaining({ target: 'step-3' }) },
  ]);
});

test('abort: an open command PR makes the flow wait for a person; the flow leaves it alone', () => {
  const abort = pull(proposal({ kind: 'abort' }, manual, { origin: 'command' }));
  const p = proposal(step(3), automatic);
  expect(run({ app: 'echo', proposal: p }, [abort])).toMatchObject([
    { kind: 'wait', reason: expect.stringContaining('(abort)') },
  ]);
  expect(run({ app: 'echo' }, [abort])).toMatchObject([{ kind: 'wait' }]);
});

test('done (nothing to propose): up to date, and a leftover flow PR is closed as obsolete', () => {
  expect(run({ app: 'echo' }, [])).toEqual([{ kind: 'wait', reason: 'up to date' }]);
  const leftover = pull(proposal({ kind: 'cleanup' }, automatic));
  expect(kinds(run({ app: 'echo' }, [leftover]))).toEqual(['close']);
});

test("the same proposal merged after this checkout's state landed: the checkout is behind, do not reopen", () => {
  const p = proposal(step(2), manual);
  const merged = pull(p, { state: 'closed', merged: true, mergedAt: '2026-03-01T11:59:00Z' });
  expect(run({ app: 'echo', proposal: p }, [merged])).toMatchObject([
    { kind: 'wait', reason: expect.stringContaining('merged after this checkout') },
  ]);
  // Merged before the current state landed (abort, then retry): old history, open again.
  const old = pull(p, { state: 'closed', merged: true, mergedAt: '2026-03-01T10:00:00Z' });
  expect(kinds(run({ app: 'echo', proposal: p }, [old]))).toEqual(['open']);
});

test("PRs of other apps and branches that are not rollgen's are ignored", () => {
  const other = { ...pull(proposal(step(1), manual)), branch: 'rollgen/other/step-1' };
  const foreign = { ...pull(proposal(step(1), manual)), branch: 'feature/x' };
  expect(groupPulls([other, foreign]).get('echo')).toBeUndefined();
  expect([...groupPulls([other, foreign]).keys()]).toEqual(['other']);
});

test('a step branch someone else pushed to is never merged by rollgen, even with the gate passed and checks green', () => {
  const p = proposal({ kind: 'step', step: 2 }, { kind: 'automatic' });
  const pushed = pull(p, {}, { head: 'rollgen-commit' });
  expect(run({ app: 'echo', proposal: p }, [pushed], new Map([[pushed.headSha, 'success']]))).toEqual([
    {
      kind: 'wait',
      pr: pushed,
      reason: `#${pushed.number} has commits rollgen did not make; a person reviews and merges it`,
    },
  ]);
  const own = pull(p);
  expect(run({ app: 'echo', proposal: p }, [own], new Map([[own.headSha, 'success']]))).toEqual([
    { kind: 'merge', pr: own },
  ]);
});

describe('verify.aws target group IPs (gate-signals scaleDownWait, on-failure)', () => {
  const lacking = {
    verify: {
      targetGroupIPs: {
        state: 'waiting' as const,
        detail: 'target group shop/web-web:80 lacks 1 of 2 ready endpoints',
      },
    },
  };
  test('a step that ends pods is not opened, nor merged once open, while its target group lacks pod IPs', () => {
    const p = proposal({ kind: 'step', step: 4 }, { kind: 'automatic' });
    const reason =
      'waiting for the target group IPs before scaling pods down: target group shop/web-web:80 lacks 1 of 2 ready endpoints';
    expect(decide({ app: 'echo', proposal: p, signals: lacking }, [], NOW, LANDED)).toEqual([{ kind: 'wait', reason }]);
    const open = pull(p);
    expect(
      decide({ app: 'echo', proposal: p, signals: lacking }, groupPulls([open]).get('echo')!, NOW, LANDED),
    ).toEqual([{ kind: 'wait', pr: open, reason }]);
  });

  test('an abort that removes pods opens its PR but does not merge it while the target group lacks pod IPs', () => {
    const abort = proposal({ kind: 'abort' }, { kind: 'manual' });
    const failed = { health: { state: 'failed' as const, reasons: ['status x is failure'], sha: 'abc' } };
    const actions = decideOnFailure(
      { app: 'echo', signals: failed },
      abort,
      'abort',
      [],
      NOW,
      undefined,
      'the IPs lack',
    );
    expect(actions?.map((a) => a.kind)).toEqual(['open', 'wait']);
    expect(actions?.[1]).toEqual({
      kind: 'wait',
      reason: 'the GitOps engine reports the step failed (status x is failure) on abc; the abort waits: the IPs lack',
    });
    const without = decideOnFailure({ app: 'echo', signals: failed }, abort, 'abort', [], NOW);
    expect(without?.map((a) => a.kind)).toEqual(['open', 'merge-opened']);
  });
});
