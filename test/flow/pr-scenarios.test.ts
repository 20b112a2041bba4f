import * as fs from 'fs';
import * as path from 'path';
import { ScmError } from '../../src/errors';
import { parseMarker } from '../../src/flow/marker';
import { runCli } from '../helpers/cli';
import { FlowWorld, TOKEN } from '../helpers/flow-world';
import { bumpImage } from '../helpers/git-repo';

const ONE_APP = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n';
let w: FlowWorld;
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

/** echo on step `k` of a new revision, the next step's PR open. */
async function rolloutAt(k: number): Promise<void> {
  w = await FlowWorld.echoAtStep(ONE_APP, k);
}

test('opening a step PR costs 3 seam calls and 6 HTTP requests; an unchanged rerun writes nothing', async () => {
  await rolloutAt(0);
  w.merge(w.openPr('rollgen/echo/step-1').number);
  const open = await w.pr();
  expect(open.calls.map((c) => c.op)).toEqual(['listPulls', 'commitToBranch', 'createPull']);
  expect(w.fake.http(open.calls)).toBe(6);
  const commit = open.calls[1].args[0] as { parentTree?: string; changes: { path: string; content: string | null }[] };
  expect(commit.parentTree).toMatch(/^[0-9a-f]{40}$/);
  expect(commit.changes.map((c) => c.path)).toEqual([
    'deploy/echo/deployment-echo-canary.yaml',
    'deploy/echo/ingress-echo-canary.yaml',
    'deploy/echo/rollgen-status.yaml',
  ]);
  const rerun = await w.pr();
  expect(rerun.calls.map((c) => c.op)).toEqual(['listPulls']);
  expect(w.fake.http(rerun.calls)).toBe(1);
  process.stdout.write(
    `requests: open step PR ${open.calls.length} seam / ${w.fake.http(open.calls)} HTTP; unchanged rerun ${rerun.calls.length} / ${w.fake.http(rerun.calls)}\n`,
  );
});

test('the last step deletes files: the clean-up commit carries them as content: null', async () => {
  await rolloutAt(0);
  w.fake.checkStates.clear();
  for (let s = 1; s <= 4; s++) {
    w.merge(w.openPr(`rollgen/echo/step-${s}`).number);
    await w.pr();
  }
  w.merge(w.openPr('rollgen/echo/promote').number);
  await w.pr();
  const changes = w.fake.changesOf(w.openPr('rollgen/echo/cleanup').number);
  expect(
    changes
      .filter((c) => c.content === null)
      .map((c) => path.basename(c.path))
      .sort(),
  ).toEqual(['deployment-echo-canary.yaml', 'ingress-echo-canary.yaml', 'service-echo-canary.yaml']);
});

test('a step PR closed unmerged holds the app: one note, no new PR, until retry --pr or a new revision', async () => {
  await rolloutAt(1);
  const step2 = w.openPr('rollgen/echo/step-2');
  w.fake.personClose(step2.number);
  const first = await w.pr();
  expect(first.writes.map((c) => c.op)).toEqual(['comment', 'updatePull']);
  expect(w.fake.comments.filter((c) => c.number === step2.number)).toHaveLength(1);
  expect(parseMarker(w.fake.pull(step2.number).body)!.noted).toBe(true);
  const again = await w.pr();
  expect(again.writes).toEqual([]);
  expect(again.stdout).toMatch(/echo: held: #\d+ was closed without merging/);
  expect(w.fake.open()).toEqual([]);

  const retry = await w.run(['retry', 'echo', '--pr']);
  expect(retry.code).toBe(0);
  const reopened = w.openPr('rollgen/echo/step-2');
  expect(reopened.number).not.toBe(step2.number);
  expect(parseMarker(reopened.body)!.origin).toBe('flow');
  expect((await w.pr()).writes).toEqual([]);

  w.fake.personClose(reopened.number);
  await w.pr();
  bumpImage(w.repo, 'echo', '2.60', w.now);
  const restart = await w.pr();
  expect(restart.stdout).toMatch(/echo: opened #\d+/);
  expect(w.openPr('rollgen/echo/step-1').body).toContain('**Step 1 of 4**');
});

test('abort --pr --merge opens the abort PR, closes the step PR it supersedes, merges at once; the flow then rests', async () => {
  await rolloutAt(2);
  const step3 = w.openPr('rollgen/echo/step-3');
  const r = await w.run(['abort', 'echo', '--pr', '--merge']);
  expect(r.code).toBe(0);
  expect(r.writes.map((c) => c.op)).toEqual(['commitToBranch', 'createPull', 'updatePull', 'comment', 'mergePull']);
  expect(w.fake.pull(step3.number)).toMatchObject({ state: 'closed', merged: false });
  expect(parseMarker(w.fake.pull(step3.number).body)!.closedBy).toBe('rollgen');
  const abort = w.fake.pulls.find((p) => p.branch === 'rollgen/echo/abort')!;
  expect(abort).toMatchObject({ merged: true, labels: ['rollgen', 'rollgen:manual'] });
  expect(fs.readFileSync(path.join(w.repo, 'deploy/echo/rollgen-status.yaml'), 'utf8')).toMatch(/phase: Aborted/);
  const after = await w.pr();
  expect(after.writes).toEqual([]);
  expect(after.stdout).toMatch(/^echo: up to date$/m);
  // retry --pr on the aborted rollout opens the retry PR for a person to merge.
  await w.run(['retry', 'echo', '--pr']);
  expect(w.openPr('rollgen/echo/retry').labels).toContain('rollgen:manual');
  expect((await w.pr()).stdout).toMatch(/waiting for a person to merge or close #\d+ \(retry\)/);
});

test('retry --pr --merge while an abort PR is open merges nothing: --merge lands only the PR of its own command', async () => {
  await rolloutAt(2);
  await w.run(['abort', 'echo', '--pr']);
  const abort = w.openPr('rollgen/echo/abort');
  const merges = w.fake.merges.length;
  const r = await w.run(['retry', 'echo', '--pr', '--merge']);
  expect(r.code).not.toBe(0);
  expect(r.stderr).toMatch(/echo: not merged: #\d+ \(rollgen\/echo\/abort\) is not the open PR of this retry/);
  expect(w.fake.merges).toHaveLength(merges);
  expect(w.fake.pull(abort.number)).toMatchObject({ state: 'open', merged: false });
});

test('promote --full --pr without --merge leaves the PR to a person', async () => {
  await rolloutAt(1);
  await w.run(['promote', 'echo', '--full', '--pr']);
  expect(w.fake.open().map((p) => p.branch)).toEqual(['rollgen/echo/promote']);
  expect(w.fake.merges).toHaveLength(3); // adopt, select, step-1: nothing merged by the command
});

test('two concurrent runs open one PR: the loser finds the PR the winner opened', async () => {
  await rolloutAt(1);
  w.merge(w.openPr('rollgen/echo/step-2').number);
  const [a, b] = await Promise.all([w.pr(), w.pr()]);
  expect([a.code, b.code]).toEqual([0, 0]);
  expect(w.fake.pulls.filter((p) => p.branch === 'rollgen/echo/step-3')).toHaveLength(1);
  expect(a.stdout + b.stdout).toMatch(/found #\d+, opened by a concurrent run/);
  expect((await w.pr()).writes).toEqual([]);
});

test('a PR opened by a POST whose response was lost (a 502, then "already exists" on the retry) is adopted with its labels', async () => {
  await rolloutAt(1);
  w.merge(w.openPr('rollgen/echo/step-2').number);
  const create = w.fake.createPull.bind(w.fake);
  // GitHub opened the PR (POST pulls carries no labels: they are a second request, never sent) and the retry heard 422.
  w.fake.createPull = async (req) => {
    w.fake.createPull = create;
    await create({ ...req, labels: [] });
    return create(req);
  };
  const r = await w.pr();
  expect(r.code).toBe(0);
  const opened = w.fake.pulls.filter((p) => p.branch === 'rollgen/echo/step-3');
  expect(opened).toHaveLength(1);
  expect(opened[0].labels).toEqual(
    expect.arrayContaining(['rollgen', expect.stringMatching(/^rollgen:(manual|timed|automatic)$/)]),
  );
  expect((await w.pr()).writes).toEqual([]);
});

test('a merge refused because the head moved after the checks were read (409) leaves the PR for the next run, and the run succeeds', async () => {
  w = new FlowWorld(['echo'], ONE_APP);
  await w.pr();
  w.merge(w.openPr('rollgen/echo/adopt').number);
  await w.pr(); // opens the selector switch, an automatic step
  const select = w.openPr('rollgen/echo/select');
  const merge = w.fake.mergePull.bind(w.fake);
  // Someone pushes to the branch between the scan and the merge.
  w.fake.mergePull = async (number, req) => {
    w.fake.mergePull = merge;
    const pushed = w.fake.pull(number);
    await w.fake.commitToBranch({
      branch: pushed.branch,
      parent: pushed.headSha,
      message: 'a person pushes',
      changes: w.fake.commits.get(pushed.headSha)!.changes,
    });
    return merge(number, req);
  };
  const r = await w.pr();
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/echo: left #\d+ unmerged: its head moved after its checks were read/);
  expect(w.fake.pull(select.number)).toMatchObject({ state: 'open', merged: false });
  // The pushed commit is not rollgen's: from now on only a person merges this PR.
  const next = await w.pr();
  expect(next.stdout).toMatch(/echo: #\d+ has commits rollgen did not make; a person reviews and merges it/);
  expect(w.fake.pull(select.number).merged).toBe(false);
});

test('--dry-run prints every intended action and makes no write call', async () => {
  await rolloutAt(1);
  w.merge(w.openPr('rollgen/echo/step-2').number);
  const before = w.fake.pulls.length;
  const r = await w.pr('--dry-run');
  expect(r.writes).toEqual([]);
  expect(r.stdout).toMatch(
    /echo: would open a PR from rollgen\/echo\/step-3 into main: "rollgen\(echo\): step 3 of 4 \(\w+\)" \[rollgen, rollgen:timed\]/,
  );
  expect(r.stdout).toContain('write deploy/echo/rollgen-status.yaml');
  expect(w.fake.pulls).toHaveLength(before);
  const abort = await w.run(['abort', 'echo', '--pr', '--merge', '--dry-run']);
  expect(abort.writes).toEqual([]);
  expect(abort.stdout).toMatch(
    /would open a PR from rollgen\/echo\/abort[^\n]*\n[\s\S]*echo: would merge the new PR \(--merge\)/,
  );
});

test('connection from GITHUB_* variables, flags override; the token never reaches stdout or stderr', async () => {
  w = new FlowWorld(['echo'], ONE_APP);
  const seen: unknown[] = [];
  const failing = (c: unknown) => {
    seen.push(c);
    return {
      ...w.fake,
      listPulls: async () => {
        throw new ScmError('list PRs', 401, `Bad credentials for ${TOKEN}`);
      },
    } as never;
  };
  const r = await runCli(['pr', '--debug'], w.repo, '', { env: w.env, now: () => w.now, scm: failing });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('Bad credentials for ***');
  expect(r.stdout + r.stderr).not.toContain(TOKEN);
  // The checkout (where step commits are built) and the git server ride along for the push.
  const root = fs.realpathSync(w.repo);
  expect(seen[0]).toEqual({
    token: TOKEN,
    repository: 'acme/deploy',
    apiUrl: 'https://api.github.com',
    serverUrl: 'https://github.com',
    localRepo: root,
  });
  await runCli(
    ['pr', '--dry-run', '--token', 'flag-token', '--repo', 'o/r', '--api-url', 'https://ghe.example.com/api/v3/'],
    w.repo,
    '',
    { env: w.env, now: () => w.now, scm: failing },
  );
  expect(seen[1]).toEqual({
    token: 'flag-token',
    repository: 'o/r',
    apiUrl: 'https://ghe.example.com/api/v3',
    serverUrl: 'https://ghe.example.com',
    localRepo: root,
  });
  const missing = await runCli(['pr'], w.repo, '', { env: {}, scm: failing });
  expect(missing).toMatchObject({ code: 2, stderr: expect.stringContaining('set GITHUB_TOKEN or pass --token') });
});

test('rollgen pr refuses a checkout that is not the base or has uncommitted app changes', async () => {
  w = new FlowWorld(['echo'], ONE_APP);
  fs.appendFileSync(path.join(w.repo, 'apps/echo/deployment.yaml'), '# wip\n');
  const dirty = await w.pr();
  expect(dirty).toMatchObject({ code: 1, stderr: expect.stringContaining('uncommitted changes') });
  const other = await w.pr('--base', 'release');
  expect(other.stderr).toContain('the checkout is on main but PRs target release');
  expect(w.fake.calls).toEqual([]);
});

test('GitHub refusing one app does not starve the others: they are done, the refusal is named, exit 1', async () => {
  w = new FlowWorld(['alpha', 'beta'], 'apps:\n  - source: apps/*\n    output: deploy/{name}\n');
  const create = w.fake.createPull.bind(w.fake);
  w.fake.createPull = async (req) => {
    if (req.branch.startsWith('rollgen/alpha/'))
      throw new ScmError(
        `open the PR for ${req.branch}`,
        422,
        'Validation Failed: a branch protection rule refused it',
      );
    return create(req);
  };
  const r = await w.pr();
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    'alpha: open the PR for rollgen/alpha/adopt: Validation Failed: a branch protection rule refused it',
  );
  expect(r.stderr).toContain('the code host refused requests for alpha (above); the other apps are done');
  expect(w.openPr('rollgen/beta/adopt').state).toBe('open');
});

test('a code host with its own PR references: the flow names PRs the way the host does, never as GitHub #N', async () => {
  w = new FlowWorld(['echo'], ONE_APP);
  w.fake.refOf = (n) => `!${n}`;
  const runs = [await w.pr()];
  w.merge(w.openPr('rollgen/echo/adopt').number);
  runs.push(await w.pr(), await w.pr());
  const text = runs.map((r) => r.stdout).join('');
  expect(text).toMatch(/echo: opened !1 /);
  expect(text).toMatch(/echo: merge !2 /);
  expect(text).not.toMatch(/#\d/);
});
