/**
 * The Octokit ScmClient against the fake GitHub: what each seam method does to the repository and
 * exactly which requests it costs. Every exchange is checked against GitHub's OpenAPI description
 * (afterEach asserts no violations).
 */
import { ScmError } from '../../src/errors';
import { Harness, mainHead, startHarness, treeOf } from './helpers';

let h: Harness;
beforeEach(async () => (h = await startHarness()));
afterEach(async () => {
  await h.fake.close();
  expect(h.fake.violations).toEqual([]);
});

const STEP_BRANCH = 'rollgen/echoserver/step-2';
const CHANGES = [
  { path: 'deploy/echoserver/deployment.yaml', content: 'kind: Deployment\n' },
  { path: 'deploy/echoserver/kustomization.yaml', content: 'resources: [deployment.yaml]\n' },
  { path: 'README.md', content: null },
];

async function commitStep(withTree = true): Promise<string> {
  const parent = mainHead(h.fake);
  return h.scm.commitToBranch({
    branch: STEP_BRANCH,
    parent,
    parentTree: withTree ? treeOf(h.fake, parent) : undefined,
    message: 'echoserver: step 2',
    changes: CHANGES,
  });
}

describe('branchHead', () => {
  test('GIVEN an existing and a missing branch WHEN read THEN the sha and undefined, one GET ref each', async () => {
    expect(await h.scm.branchHead('main')).toBe(mainHead(h.fake));
    expect(await h.scm.branchHead('rollgen/nope/step-1')).toBeUndefined();
    expect(h.fake.log()).toEqual(['GET /git/ref/{ref}', 'GET /git/ref/{ref}']);
  });

  test('GIVEN a branch name with slashes WHEN read THEN it resolves (Octokit encodes the slashes)', async () => {
    const sha = await commitStep();
    expect(await h.scm.branchHead(STEP_BRANCH)).toBe(sha);
  });
});

describe('commitToBranch', () => {
  test('GIVEN a new branch and the parent tree WHEN committing THEN one commit on the parent holds every change, in 3 requests', async () => {
    const parent = mainHead(h.fake);
    const sha = await commitStep();
    expect(h.fake.log()).toEqual(['POST /git/trees', 'POST /git/commits', 'POST /git/refs']);
    expect(h.fake.state.branches.get(STEP_BRANCH)).toBe(sha);
    expect(h.fake.state.commits.get(sha)?.parents).toEqual([parent]);
    expect(Object.fromEntries(h.fake.state.filesAt(STEP_BRANCH))).toEqual({
      'deploy/echoserver/deployment.yaml': 'kind: Deployment\n',
      'deploy/echoserver/kustomization.yaml': 'resources: [deployment.yaml]\n',
    });
    expect(h.fake.state.branches.get('main')).toBe(parent);
  });

  test('GIVEN no parent tree WHEN committing THEN the parent commit is read first: 4 requests', async () => {
    await commitStep(false);
    expect(h.fake.log()).toEqual([
      'GET /git/commits/{commit_sha}',
      'POST /git/trees',
      'POST /git/commits',
      'POST /git/refs',
    ]);
  });

  test('GIVEN the branch already exists with another commit WHEN committing THEN it is force-reset to parent + one commit (422 then PATCH)', async () => {
    const first = await commitStep();
    const parent = mainHead(h.fake);
    h.fake.resetLog();
    const second = await h.scm.commitToBranch({
      branch: STEP_BRANCH,
      parent,
      parentTree: treeOf(h.fake, parent),
      message: 'echoserver: step 2 (rebased)',
      changes: [CHANGES[0]],
    });
    expect(second).not.toBe(first);
    expect(h.fake.log()).toEqual(['POST /git/trees', 'POST /git/commits', 'POST /git/refs', 'PATCH /git/refs/{ref}']);
    expect(h.fake.requests.map((r) => r.status)).toEqual([201, 201, 422, 200]);
    expect(h.fake.state.branches.get(STEP_BRANCH)).toBe(second);
    expect(h.fake.state.commits.get(second)?.parents).toEqual([parent]);
    expect([...h.fake.state.filesAt(STEP_BRANCH).keys()].sort()).toEqual([
      'README.md',
      'deploy/echoserver/deployment.yaml',
    ]);
  });
});

describe('opening a step PR', () => {
  test.each([
    [true, 5],
    [false, 6],
  ])(
    'GIVEN parentTree known=%s WHEN committing and opening the PR with labels THEN it takes %i requests (at most 6)',
    async (withTree, count) => {
      const sha = await commitStep(withTree);
      const pr = await h.scm.createPull({
        branch: STEP_BRANCH,
        base: 'main',
        title: 'echoserver: step 2 of 4',
        body: 'traffic 20%',
        labels: ['rollgen', 'rollgen:echoserver'],
      });
      expect(h.fake.requests).toHaveLength(count);
      expect(count).toBeLessThanOrEqual(6);
      expect(h.fake.log().slice(-2)).toEqual(['POST /pulls', 'POST /issues/{issue_number}/labels']);
      expect(pr).toEqual({
        number: 1,
        url: expect.stringMatching(/\/octo\/demo\/pull\/1$/),
        branch: STEP_BRANCH,
        base: 'main',
        state: 'open',
        merged: false,
        title: 'echoserver: step 2 of 4',
        body: 'traffic 20%',
        labels: ['rollgen', 'rollgen:echoserver'],
        headSha: sha,
        ref: '#1',
      });
      expect(h.fake.state.pulls.get(1)?.labels).toEqual(['rollgen', 'rollgen:echoserver']);
    },
  );

  test('GIVEN no labels WHEN opening THEN one request', async () => {
    await commitStep();
    h.fake.resetLog();
    const pr = await h.scm.createPull({ branch: STEP_BRANCH, base: 'main', title: 't', body: '', labels: [] });
    expect(h.fake.log()).toEqual(['POST /pulls']);
    expect(pr.labels).toEqual([]);
  });

  test('GIVEN an open PR for the branch WHEN opening another THEN ScmError with outcome already-exists (GitHub said 422)', async () => {
    await commitStep();
    await h.scm.createPull({ branch: STEP_BRANCH, base: 'main', title: 't', body: '', labels: [] });
    const error = await h.scm
      .createPull({ branch: STEP_BRANCH, base: 'main', title: 't', body: '', labels: [] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ScmError', status: 422, outcome: 'already-exists' });
  });
});

describe('listPulls', () => {
  test('GIVEN 150 open PRs, 120 of them rollgen branches WHEN listing by prefix THEN newest first, only rollgen ones, 2 list requests', async () => {
    for (let i = 1; i <= 150; i++)
      h.fake.state.openPull(i % 5 === 0 ? `feature/${i}` : `rollgen/app-${i}/step-1`, 'main', `PR ${i}`, null);
    h.fake.state.pulls.get(7)!.state = 'closed';
    const open = await h.scm.listPulls({ prefix: 'rollgen/', state: 'open' });
    expect(h.fake.log()).toEqual(['GET /pulls', 'GET /pulls']);
    expect(open).toHaveLength(119);
    expect(open[0]).toMatchObject({
      number: 149,
      branch: 'rollgen/app-149/step-1',
      body: '',
      state: 'open',
      merged: false,
    });
    expect(open.map((p) => p.number)).toEqual([...open.map((p) => p.number)].sort((a, b) => b - a));
    expect(open.some((p) => p.branch.startsWith('feature/') || p.number === 7)).toBe(false);
    const all = await h.scm.listPulls({ prefix: 'rollgen/app-7/', state: 'all' });
    expect(all.map((p) => [p.number, p.state, p.closedAt])).toEqual([[7, 'closed', undefined]]);
  });

  test('GIVEN 3 open PRs and 450 closed ones WHEN listing with closedSince THEN all open, the recent closed, and 1 + 1 requests instead of 5', async () => {
    for (let i = 1; i <= 453; i++) h.fake.state.openPull(`rollgen/app-${i}/step-1`, 'main', `PR ${i}`, null);
    for (let i = 1; i <= 450; i++) {
      const p = h.fake.state.pulls.get(i)!;
      p.state = 'closed';
      // Closed long ago, except the three most recent closures.
      p.updatedAt = p.closedAt = i > 447 ? '2026-06-01T00:00:00Z' : '2025-01-01T00:00:00Z';
    }
    h.fake.resetLog();
    const recent = await h.scm.listPulls({
      prefix: 'rollgen/',
      state: 'all',
      closedSince: new Date('2026-05-01T00:00:00Z'),
    });
    expect(h.fake.log()).toEqual(['GET /pulls', 'GET /pulls']);
    expect(recent.map((p) => p.number)).toEqual([453, 452, 451, 450, 449, 448]);
    h.fake.resetLog();
    await h.scm.listPulls({ prefix: 'rollgen/', state: 'all' });
    expect(h.fake.log()).toHaveLength(5);
  });

  test('GIVEN fewer than 100 PRs WHEN listing with closedSince THEN one request, with open PRs however old', async () => {
    for (let i = 1; i <= 4; i++) h.fake.state.openPull(`rollgen/app-${i}/step-1`, 'main', `PR ${i}`, null);
    const old = '2025-01-01T00:00:00Z';
    Object.assign(h.fake.state.pulls.get(1)!, { updatedAt: old }); // open, untouched for a year
    Object.assign(h.fake.state.pulls.get(2)!, { state: 'closed', updatedAt: old, closedAt: old });
    Object.assign(h.fake.state.pulls.get(3)!, { state: 'closed', updatedAt: '2026-06-01T00:00:00Z' });
    h.fake.resetLog();
    const listed = await h.scm.listPulls({
      prefix: 'rollgen/',
      state: 'all',
      closedSince: new Date('2026-05-01T00:00:00Z'),
    });
    expect(h.fake.log()).toEqual(['GET /pulls']);
    expect(listed.map((p) => p.number)).toEqual([4, 3, 1]);
  });
});

describe('updatePull', () => {
  beforeEach(async () => {
    await commitStep();
    await h.scm.createPull({ branch: STEP_BRANCH, base: 'main', title: 'old', body: 'old', labels: ['rollgen', 'b'] });
    h.fake.resetLog();
  });

  test('GIVEN the same label set in another order WHEN updating the body THEN one PATCH only', async () => {
    const pr = await h.scm.updatePull(1, { body: 'new body', labels: ['b', 'rollgen'] });
    expect(h.fake.log()).toEqual(['PATCH /pulls/{pull_number}']);
    expect(pr).toMatchObject({ title: 'old', body: 'new body', labels: ['rollgen', 'b'] });
  });

  test('GIVEN other labels WHEN updating THEN PATCH then PUT labels, and the result carries the new set', async () => {
    const pr = await h.scm.updatePull(1, { title: 'new', labels: ['rollgen', 'held'] });
    expect(h.fake.log()).toEqual(['PATCH /pulls/{pull_number}', 'PUT /issues/{issue_number}/labels']);
    expect(pr).toMatchObject({ title: 'new', labels: ['rollgen', 'held'] });
    expect(h.fake.state.pulls.get(1)?.labels).toEqual(['rollgen', 'held']);
  });

  test('GIVEN only other labels (a concurrent run has not labelled its new PR yet) WHEN updating THEN no empty PATCH: GET, then PUT labels', async () => {
    const pr = await h.scm.updatePull(1, { labels: ['rollgen', 'held'] });
    expect(h.fake.log()).toEqual(['GET /pulls/{pull_number}', 'PUT /issues/{issue_number}/labels']);
    expect(pr).toMatchObject({ title: 'old', body: 'old', labels: ['rollgen', 'held'] });
  });

  test('GIVEN state closed WHEN updating THEN the PR is closed with a closing time', async () => {
    const pr = await h.scm.updatePull(1, { state: 'closed' });
    expect(pr).toMatchObject({ state: 'closed', merged: false, closedAt: expect.stringMatching(/^2026-/) });
  });
});

describe('mergePull', () => {
  let head: string;
  beforeEach(async () => {
    head = await commitStep();
    await h.scm.createPull({ branch: STEP_BRANCH, base: 'main', title: 'step 2', body: '', labels: [] });
    h.fake.resetLog();
  });

  test('GIVEN the expected head WHEN merging THEN one PUT merge, main holds the step files', async () => {
    await h.scm.mergePull(1, { sha: head, method: 'squash', title: 'echoserver: step 2' });
    expect(h.fake.log()).toEqual(['PUT /pulls/{pull_number}/merge']);
    expect(h.fake.state.pulls.get(1)?.mergedAt).not.toBeNull();
    expect(h.fake.state.filesAt('main').get('deploy/echoserver/deployment.yaml')).toBe('kind: Deployment\n');
  });

  test('GIVEN the head moved WHEN merging with the old sha THEN ScmError 409 saying so, not retried, not merged', async () => {
    const error = await h.scm.mergePull(1, { sha: 'f'.repeat(40), method: 'merge' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScmError);
    expect(error).toMatchObject({ status: 409, action: 'merge PR #1', outcome: 'head-moved' });
    expect((error as Error).message).toMatch(
      /^merge PR #1: its head moved since rollgen checked it \(expected ffffffffffff\)/,
    );
    expect(h.fake.requests).toHaveLength(1);
    expect(h.fake.state.pulls.get(1)?.mergedAt).toBeNull();
  });

  test('GIVEN GitHub refuses the merge WHEN merging THEN ScmError 405 "not mergeable", not retried', async () => {
    h.fake.state.pulls.get(1)!.mergeable = false;
    const error = await h.scm.mergePull(1, { sha: head, method: 'merge' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ScmError', status: 405, outcome: 'not-mergeable' });
    expect((error as Error).message).toMatch(/not mergeable/);
    // Not retried; one read tells a refusal from a merge whose response was lost.
    expect(h.fake.log()).toEqual(['PUT /pulls/{pull_number}/merge', 'GET /pulls/{pull_number}']);
  });
});

describe('checks', () => {
  const sha = 'a'.repeat(40);
  test.each<[string, () => void, string]>([
    ['no checks at all', () => undefined, 'success'],
    ['a check run in progress', () => h.fake.state.addCheckRun(sha, 'ci', 'in_progress'), 'pending'],
    [
      'passing runs and a success status',
      () => (
        h.fake.state.addCheckRun(sha, 'ci', 'completed', 'success'),
        h.fake.state.addCheckRun(sha, 'lint', 'completed', 'skipped'),
        h.fake.state.addStatus(sha, 'legacy', 'success')
      ),
      'success',
    ],
    [
      'a pending status',
      () => (
        h.fake.state.addCheckRun(sha, 'ci', 'completed', 'success'), h.fake.state.addStatus(sha, 'legacy', 'pending')
      ),
      'pending',
    ],
    [
      'a failed run next to a running one',
      () => (
        h.fake.state.addCheckRun(sha, 'ci', 'completed', 'timed_out'), h.fake.state.addCheckRun(sha, 'e2e', 'queued')
      ),
      'failure',
    ],
    ['an errored status', () => h.fake.state.addStatus(sha, 'legacy', 'error'), 'failure'],
  ])('GIVEN %s WHEN reading checks THEN the combination follows, from 2 requests', async (_name, seed, expected) => {
    seed();
    expect(await h.scm.checks(sha)).toBe(expected);
    expect(h.fake.log().sort()).toEqual(['GET /commits/{ref}/check-runs', 'GET /commits/{ref}/status']);
  });
});

describe('comment', () => {
  test('GIVEN an open PR WHEN commenting THEN one POST, the comment is on the PR', async () => {
    await commitStep();
    await h.scm.createPull({ branch: STEP_BRANCH, base: 'main', title: 't', body: '', labels: [] });
    h.fake.resetLog();
    await h.scm.comment(1, 'gate passed; merging');
    expect(h.fake.log()).toEqual(['POST /issues/{issue_number}/comments']);
    expect(h.fake.state.pulls.get(1)?.comments).toEqual(['gate passed; merging']);
  });
});
