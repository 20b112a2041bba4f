/**
 * What is Gitea's own in rollgen's Gitea/Forgejo client, through bin/rollgen against the loopback
 * Gitea: a token without a write scope is named in Gitea's words, a protected base holds the merge
 * with Gitea's reason (one attempt a run, never a loop), the PR scan follows Gitea's pages of 50,
 * Forgejo's runner is recognised by FORGEJO_ACTIONS alone, and the token never reaches git's argv.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GiteaHarness } from './gitea-harness';

jest.setTimeout(180_000);
const CONFIG = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n    gates: {unpaused: automatic}\n';
const AT = new Date('2026-03-01T09:00:00Z');

let h: GiteaHarness;
afterEach(async () => {
  expect(h.violations()).toEqual([]);
  await h.stop();
});

async function started(harness: GiteaHarness): Promise<GiteaHarness> {
  h = harness;
  await h.start(['echo'], CONFIG, AT);
  return h;
}

test('GIVEN a token with read scopes only WHEN rollgen opens a PR THEN Gitea refuses it and rollgen names the write:repository scope', async () => {
  await started(new GiteaHarness({ scopes: ['read:repository', 'read:issue'] }));
  const run = await h.pr();
  expect(run.code).not.toBe(0);
  expect(run.stdout + run.stderr).toMatch(
    /open a PR from rollgen\/echo\/adopt into main in acme\/deploy: Gitea refused it \(token does not have at least one of required scope\(s\), required=\[write:(repository|issue)\].*\): the token needs the write:(repository|issue) scope/,
  );
  expect(h.changes()).toEqual([]);
});

test("GIVEN main protected (approvals missing) WHEN an automatic step is due THEN one merge attempt a run, held with Gitea's reason, the PR left open", async () => {
  await started(new GiteaHarness());
  await h.pr();
  h.mergeAsPerson(h.changes()[0].number, new Date(AT.getTime() + 1800_000));
  await h.pr();
  const select = h.changes().find((c) => c.branch === 'rollgen/echo/select')!;
  expect(select.state).toBe('open');
  h.server.state.protection = 'Does not have enough approvals';
  for (let i = 0; i < 2; i++) {
    const run = await h.pr();
    // The other apps go on; the run fails so the job shows a person has to act.
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain(
      `echo: merge PR #${select.number}: Gitea says it cannot be merged (not allowed to merge [reason: Does not have enough approvals])`,
    );
    expect(h.runLog[h.runLog.length - 1].requests.filter((r) => r === 'POST /pulls/{index}/merge')).toHaveLength(1);
  }
  expect(h.changes().find((c) => c.number === select.number)!.state).toBe('open');
  h.server.state.protection = undefined;
  expect((await h.pr()).code).toBe(0);
  expect(h.changes().find((c) => c.number === select.number)!.state).toBe('merged');
});

test("GIVEN 60 newer PRs of people WHEN rollgen scans THEN it reads both of Gitea's pages of 50 and finds its own PR on the second", async () => {
  await started(new GiteaHarness());
  await h.pr();
  const [adopt] = h.changes();
  const s = h.server.state;
  for (let i = 0; i < 60; i++) {
    const n = s.nextId();
    s.pulls.set(n, {
      number: n,
      head: `feature-${i}`,
      base: 'main',
      title: `feature ${i}`,
      body: '',
      state: 'open',
      labels: [],
      headSha: h.mainHead(),
      createdAt: s.now(),
      updatedAt: s.now(),
      mergedAt: null,
      mergedBy: null,
      closedAt: null,
      mergeCommitSha: null,
    });
  }
  const rerun = await h.pr();
  expect(rerun).toMatchObject({ code: 0, stdout: `echo: manual gate: a person merges ${adopt.ref}\n`, stderr: '' });
  expect(h.runLog[h.runLog.length - 1].requests.filter((r) => r === 'GET /pulls')).toHaveLength(2);
  expect(h.changes().filter((c) => c.branch === 'rollgen/echo/adopt')).toHaveLength(1);
});

test("GIVEN a Forgejo runner (FORGEJO_ACTIONS=true, FORGEJO_* variables only) WHEN rollgen pr runs THEN it talks to Gitea's API and pushes with the token in a header only", async () => {
  await started(new GiteaHarness({}, {}));
  const run = await h.prWith({
    FORGEJO_ACTIONS: 'true',
    FORGEJO_TOKEN: h.server.token,
    FORGEJO_REPOSITORY: h.server.repository,
    FORGEJO_SERVER_URL: h.server.serverUrl,
  });
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(run.stdout).toMatch(/^echo: opened #\d+ http:\/\/127\.0\.0\.1:\d+\/acme\/deploy\/pulls\/\d+\n$/);
  expect(h.runLog[0]).toEqual({
    requests: ['GET /pulls', 'GET /labels', 'POST /labels', 'POST /labels', 'POST /pulls'],
    pushes: 1,
  });
  expect(h.server.remote.requests.every((r) => r.authorized)).toBe(true);
});

test('GIVEN --api-url that is no Gitea API URL WHEN rollgen pr --forge gitea runs THEN it is refused with what to give', async () => {
  await started(new GiteaHarness());
  const run = await h.prWith({ GITHUB_TOKEN: h.server.token, GITHUB_REPOSITORY: 'acme/deploy' }, [
    '--forge',
    'gitea',
    '--api-url',
    h.server.serverUrl,
  ]);
  expect(run.code).toBe(2);
  expect(run.stdout + run.stderr).toContain("must be the Gitea API's http(s) URL ending in /api/v1");
  expect(h.server.requests).toEqual([]);
});

test("GIVEN Gitea Actions WHEN rollgen opens a step PR THEN an idle rerun costs one request and the abort path links Gitea's workflow page (actions?workflow=) and offers no gh command", async () => {
  await started(new GiteaHarness());
  await h.pr();
  h.mergeAsPerson(h.changes()[0].number, new Date(AT.getTime() + 1800_000));
  await h.pr(); // opens the selector switch
  await h.pr(); // merges it (automatic)
  // With merged PRs in the repository, a run with nothing to do still costs one request: one page held them all.
  expect(await h.pr()).toMatchObject({ code: 0, stdout: 'echo: up to date\n', requests: 1 });
  h.pushToMain(
    (repo) => {
      const file = join(repo, 'apps', 'echo', 'deployment.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/image: (\S+?):\S+/, 'image: $1:2.54'));
    },
    'echo 2.54',
    new Date(AT.getTime() + 3600_000),
  );
  await h.pr();
  const step1 = h.changes().find((c) => c.branch === 'rollgen/echo/step-1')!;
  expect(step1.body).toContain(
    `- on Gitea: open [the \`rollgen.yml\` workflow](${h.server.serverUrl}/acme/deploy/actions?workflow=rollgen.yml), "Run workflow", and choose \`command: abort\`, \`app: echo\`, \`merge: true\`\n`,
  );
  expect(step1.body).not.toContain('gh workflow run');
  expect(step1.body).not.toContain('on GitHub');
});

test('GIVEN Gitea acts but its answer is lost (a 502 after the work) WHEN rollgen opens and merges THEN one PR, one merge, and the run succeeds', async () => {
  await started(new GiteaHarness());
  h.server.inject({ method: 'POST', route: '/repos/{owner}/{repo}/pulls', status: 502, afterHandling: true });
  const open = await h.pr();
  expect(open).toMatchObject({ code: 0, stderr: '' });
  expect(h.changes().map((c) => c.branch)).toEqual(['rollgen/echo/adopt']);
  // The retry heard Gitea's 409 "pull request already exists": the PR was found and adopted.
  expect(h.runLog[0].requests.filter((r) => r === 'POST /pulls')).toHaveLength(2);
  h.mergeAsPerson(h.changes()[0].number, new Date(AT.getTime() + 1800_000));
  await h.pr(); // opens the selector switch
  h.server.inject({
    method: 'POST',
    route: '/repos/{owner}/{repo}/pulls/{index}/merge',
    status: 502,
    afterHandling: true,
  });
  const merge = await h.pr();
  expect(merge).toMatchObject({ code: 0, stderr: '' });
  expect(h.changes().find((c) => c.branch === 'rollgen/echo/select')!.state).toBe('merged');
  // The retry heard 405 "already merged"; reading the PR showed this very head merged.
  expect(h.runLog[h.runLog.length - 1].requests.slice(-3)).toEqual([
    'POST /pulls/{index}/merge',
    'POST /pulls/{index}/merge',
    'GET /pulls/{index}',
  ]);
});
