/**
 * GitLab with the git push refused (a protected rollgen/* branch, a token without
 * write_repository): rollgen says so once a run and writes each step branch by GitLab's commits
 * API, one request a branch, with the very tree the push would have written. The shared flow
 * scenarios (start, manual gate, a rerun that changes nothing, health wait, automatic abort) run
 * as on a push, and the client's own writes are compared with the commits the push builds.
 */
import { createGitLabScm } from '../../src/scm/gitlab';
import { buildCommits } from '../../src/scm/github/local-commits';
import type { CommitRequest } from '../../src/scm/types';
import { git } from '../helpers/git-repo';
import { GitLabHarness } from './gitlab-harness';
import { runScenarios, serveAnalysis } from './scenarios';

jest.setTimeout(300_000);

serveAnalysis();

const COMMITS = 'POST /api/v4/projects/:id/repository/commits';

describe('the flow with every push refused', () => {
  runScenarios(
    () => {
      const h = new GitLabHarness();
      h.refusePush = true;
      return h;
    },
    {
      only: (name) => /^(start|health|a person closes)/.test(name),
      check: (h) => {
        const pushed = h.fake.git.requests.filter((r) => r.service === 'git-receive-pack' && r.status === 200);
        expect(pushed).toEqual([]);
        expect(h.fake.apiCommits.length).toBeGreaterThan(0);
        // Said once a run, in the runs that wrote a branch and only in them.
        expect(h.notices.every((n) => n.length <= 1)).toBe(true);
        expect(h.notices.map((n) => n.length)).toEqual(h.commitsPerRun.map((n) => (n > 0 ? 1 : 0)));
        const writes = h.notices.filter((n) => n.length === 1);
        expect(writes[0][0]).toMatch(
          /^rollgen: git push to http:\/\/127\.0\.0\.1:\d+\/acme\/platform\/deploy\.git was refused \(.*403.*\); step branches go through GitLab's commits API for the rest of this run \(one request a branch\)/,
        );
        // One request a branch: a new branch, or one reset with force.
        expect(h.fake.requests.filter((r) => r.route === COMMITS).map((r) => r.status)).toEqual(
          h.fake.apiCommits.map(() => 201),
        );
      },
    },
  );
});

describe('the client with the push refused', () => {
  let h: GitLabHarness;
  const notices: string[] = [];
  const CONFIG = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n';
  beforeEach(async () => {
    h = new GitLabHarness();
    h.refusePush = true;
    await h.start(['echo'], CONFIG, new Date('2026-01-01T00:00:00Z'));
    notices.length = 0;
  });
  afterEach(async () => {
    expect(h.fake.violations).toEqual([]);
    await h.stop();
  });
  const client = () =>
    createGitLabScm(
      {
        token: h.fake.token,
        repository: h.fake.project,
        apiUrl: h.fake.apiUrl,
        serverUrl: h.fake.serverUrl,
        localRepo: h.repo,
        forge: 'gitlab',
      },
      { notice: (line) => notices.push(line), retryUnitMs: 1 },
    );
  const request = (branch: string, text: string, expectedHead?: string | null): CommitRequest => {
    const files = git(h.repo, ['ls-tree', '-r', '--name-only', 'HEAD']).trim().split('\n');
    const [update, remove] = files.filter((f) => f.startsWith('apps/echo/'));
    return {
      branch,
      parent: git(h.repo, ['rev-parse', 'HEAD']).trim(),
      message: `rollgen: ${text}\n`,
      changes: [
        { path: update, content: `# ${text}\n` },
        { path: remove, content: null },
        { path: 'deploy/echo/steps/new.yaml', content: `kind: ConfigMap # ${text} é\n` },
        { path: 'deploy/echo/never-there.yaml', content: null },
      ],
      ...(expectedHead !== undefined ? { expectedHead } : {}),
    };
  };
  /** The tree the git push would have written for `req`: GitBranchWriter's own commit, built in the checkout. */
  const pushedTree = (req: CommitRequest) =>
    git(h.repo, ['rev-parse', `${buildCommits(h.repo, [req])[0]}^{tree}`]).trim();
  const remoteTree = (branch: string) => git(h.fake.git.dir, ['rev-parse', `refs/heads/${branch}^{tree}`]).trim();

  test('GIVEN a new branch, then its update, then a branch left from an earlier merge request WHEN written THEN each has the tree the push would write, on the base plus one commit, said once', async () => {
    const scm = client();
    const first = request('rollgen/echo/step-1', 'one', null);
    // The refused push writes nothing and says so; the caller writes again, now by the API.
    const [refused] = await scm.writeBranches([first]);
    expect('error' in refused && refused.error.outcome).toBe('push-refused');
    expect(h.fake.head(first.branch)).toBeUndefined();
    const pushTries = () => h.fake.git.requests.filter((r) => r.service === 'git-receive-pack').length;
    const tried = pushTries();
    expect(tried).toBeGreaterThan(0);
    const [a] = await scm.writeBranches([first]);
    expect(a).toEqual({ branch: first.branch, sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(remoteTree(first.branch)).toBe(pushedTree(first));
    expect(scm.usage().requestsPerBranch).toBe(1);
    // The update resets the branch to the base plus one new commit (force), one request.
    const second = request('rollgen/echo/step-1', 'two', 'sha' in a ? a.sha : '');
    const before = h.fake.requests.length;
    const [b] = await scm.writeBranches([second]);
    expect(h.fake.requests.slice(before).map((r) => `${r.route} ${r.status}`)).toEqual([`${COMMITS} 201`]);
    expect(remoteTree(second.branch)).toBe(pushedTree(second));
    expect(git(h.fake.git.dir, ['rev-parse', `${'sha' in b ? b.sha : ''}^`]).trim()).toBe(second.parent);
    // Expected absent but there (its merge request was closed): GitLab's 400, then the reset.
    const third = request('rollgen/echo/step-1', 'three', null);
    const [c] = await scm.writeBranches([third]);
    expect('sha' in c).toBe(true);
    expect(remoteTree(third.branch)).toBe(pushedTree(third));
    expect(h.fake.requests.slice(-2).map((r) => r.status)).toEqual([400, 201]);
    expect(notices).toHaveLength(1);
    // No push is tried again in this run.
    expect(pushTries()).toBe(tried);
  });

  test('GIVEN a start_sha GitLab does not have WHEN the commit is posted THEN the fake answers 400 as GitLab does and the branch is not written', async () => {
    const scm = client();
    const req = { ...request('rollgen/echo/step-1', 'one', null), parent: 'f'.repeat(40) };
    // The checkout cannot list a parent it lacks either: the write fails before any request.
    const [r] = await scm.writeBranches([req]);
    expect('error' in r).toBe(true);
    const res = await fetch(`${h.fake.apiUrl}/projects/${h.fake.projectId}/repository/commits`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': h.fake.token, 'content-type': 'application/json' },
      body: JSON.stringify({
        branch: 'x',
        commit_message: 'm',
        start_sha: 'f'.repeat(40),
        actions: [{ action: 'create', file_path: 'a', content: 'b' }],
      }),
    });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: { message: `Cannot find start_sha '${'f'.repeat(40)}'` },
    });
    expect(h.fake.head('rollgen/echo/step-1')).toBeUndefined();
  });
});
