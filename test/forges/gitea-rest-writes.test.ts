/**
 * Gitea/Forgejo with the git push refused (a protected rollgen/* branch, a token without
 * write:repository for git): rollgen says so once a run and writes each step branch by Gitea's
 * contents API with the very tree the push would have written. The shared flow scenarios (start,
 * manual gate, a rerun that changes nothing, health wait, automatic abort, a person's close) run as
 * on a push; the client's writes are compared with the commits the push builds.
 */
import { createGiteaScm } from '../../src/scm/gitea';
import { buildCommits } from '../../src/scm/github/local-commits';
import type { BranchWrite, CommitRequest } from '../../src/scm/types';
import { git } from '../helpers/git-repo';
import { GiteaHarness } from './gitea-harness';
import { runScenarios, serveAnalysis } from './scenarios';

jest.setTimeout(300_000);

serveAnalysis();

describe('the flow with every push refused', () => {
  let last: GiteaHarness | undefined;
  runScenarios(
    () => {
      last = new GiteaHarness();
      last.refusePush = true;
      return last;
    },
    {
      only: (name) => /^(start|health|a person closes)/.test(name),
      check: (h) => {
        expect(h.runLog.every((r) => r.pushes === 0)).toBe(true);
        expect(h.server.apiWrites.length).toBeGreaterThan(0);
        // Said once a run, in the runs that wrote a branch and only in them.
        expect(h.notices.map((n) => n.length)).toEqual(h.writesPerRun.map((n) => (n > 0 ? 1 : 0)));
        expect(h.notices.find((n) => n.length === 1)![0]).toMatch(
          /^rollgen: git push to http:\/\/127\.0\.0\.1:\d+\/acme\/deploy\.git was refused \(.*403.*\); step branches go through Gitea's contents API for the rest of this run/,
        );
        // No branch write closed a PR (Gitea closes the open PRs of a branch it deletes).
        expect(h.server.apiWrites.filter((w) => w.closed)).toEqual([]);
      },
    },
  );
  afterEach(() => {
    const lines = last?.runLog.map((r, i) => `  run ${i + 1}: ${r.requests.length} requests: ${r.requests.join(', ')}`);
    if (lines) process.stdout.write(`gitea runs, push refused:\n${lines.join('\n')}\n`);
  });
});

describe('the client with the push refused', () => {
  let h: GiteaHarness;
  const notices: string[] = [];
  const CONFIG = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n';
  beforeEach(async () => {
    h = new GiteaHarness();
    h.refusePush = true;
    await h.start(['echo'], CONFIG, new Date('2026-01-01T00:00:00Z'));
    notices.length = 0;
  });
  afterEach(async () => {
    expect(h.server.violations).toEqual([]);
    await h.stop();
  });
  const client = () =>
    createGiteaScm(
      {
        token: h.server.token,
        repository: h.server.repository,
        apiUrl: h.server.apiUrl,
        serverUrl: h.server.serverUrl,
        localRepo: h.repo,
        forge: 'gitea',
      },
      { notice: (line) => notices.push(line), retryUnitMs: 1 },
    );
  const request = (text: string, expectedHead?: string | null): CommitRequest => {
    const files = git(h.repo, ['ls-tree', '-r', '--name-only', 'HEAD']).trim().split('\n');
    const [update, remove] = files.filter((f) => f.startsWith('apps/echo/'));
    return {
      branch: 'rollgen/echo/step-1',
      parent: git(h.repo, ['rev-parse', 'HEAD']).trim(),
      base: 'main',
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
  const pushedTree = (req: CommitRequest) =>
    git(h.repo, ['rev-parse', `${buildCommits(h.repo, [req])[0]}^{tree}`]).trim();
  const remoteTree = (branch: string) => git(h.server.remote.dir, ['rev-parse', `refs/heads/${branch}^{tree}`]).trim();
  const routes = (from: number) => h.server.log().slice(from);
  const shaOf = (w: BranchWrite) => ('sha' in w ? w.sha : `error: ${w.error.message}`);

  test('GIVEN a new branch, the update of its open PR, then a branch left from a closed PR WHEN written THEN each has the tree the push would write and the open PR stays open', async () => {
    const scm = client();
    const first = request('one', null);
    const [refused] = await scm.writeBranches([first]);
    expect('error' in refused && refused.error.outcome).toBe('push-refused');
    let from = h.server.requests.length;
    const a = shaOf((await scm.writeBranches([first]))[0]);
    expect(routes(from)).toEqual(['POST /contents']);
    expect(remoteTree(first.branch)).toBe(pushedTree(first));
    // Signed as the push signs it (rollgen, the parent's date): the very commit the push would have made.
    expect(a).toBe(buildCommits(h.repo, [first])[0]);
    const pr = await scm.createPull({ branch: first.branch, base: 'main', title: 't', body: 'b', labels: [] });
    // The open PR's branch: one commit on top (deleting the branch would close the PR).
    const second = request('two', a);
    from = h.server.requests.length;
    const b = shaOf((await scm.writeBranches([second]))[0]);
    expect(routes(from)).toEqual(['GET /git/trees/{sha}', 'POST /contents']);
    expect(remoteTree(second.branch)).toBe(pushedTree(second));
    expect(git(h.server.remote.dir, ['rev-parse', `${b}^`]).trim()).toBe(a);
    expect(h.server.state.pulls.get(pr.number)!.state).toBe('open');
    // Its PR closed, the branch left behind is deleted and written anew from the base.
    h.closeAsPerson(pr.number);
    const third = request('three', null);
    from = h.server.requests.length;
    const c = shaOf((await scm.writeBranches([third]))[0]);
    expect(routes(from)).toEqual(['POST /contents', 'DELETE /branches/{branch}', 'POST /contents']);
    expect(remoteTree(third.branch)).toBe(pushedTree(third));
    expect(git(h.server.remote.dir, ['rev-parse', `${c}^`]).trim()).toBe(third.parent);
    expect(notices).toHaveLength(1);
  });
});
