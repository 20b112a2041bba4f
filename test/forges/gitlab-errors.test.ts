/**
 * GitLab's refusals in GitLab's words, through bin/rollgen pr as a GitLab CI job runs it: a token
 * without the api scope, a project that is not there, a merge request that lacks its approval (a
 * hold, tried once a run, never a loop), and a 429 waited out as RateLimit/Retry-After say.
 */
import { GitLabHarness } from './gitlab-harness';

jest.setTimeout(180_000);
const CONFIG = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n    gates: {unpaused: automatic}\n';
const AT = new Date(Date.now() - 3 * 3_600_000);
let h: GitLabHarness;
beforeEach(async () => {
  h = new GitLabHarness();
  await h.start(['echo'], CONFIG, AT);
});
afterEach(async () => {
  await h.stop();
  expect(h.fake.violations).toEqual([]);
});

const said = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;
const calls = (route: string) => h.fake.requests.filter((r) => r.route === route).length;

test('GIVEN a token with read_api only WHEN rollgen pr opens the first merge request THEN it fails naming the api scope to grant, not the token', async () => {
  h.fake.scope = 'read_api';
  const r = await h.pr();
  expect(r.code).toBe(1);
  expect(said(r)).toContain(
    'the token lacks the api scope (insufficient_scope: The request requires higher privileges',
  );
  expect(said(r)).toContain('create a project access token with the api scope');
  expect(said(r)).not.toContain(h.fake.token);
  expect(h.fake.mrs.size).toBe(0);
});

test('GIVEN a project path GitLab does not know WHEN rollgen pr runs THEN it names the project and what to check', async () => {
  h.env = { CI_PROJECT_PATH: 'acme/platform/other' };
  const r = await h.pr();
  expect(r.code).toBe(1);
  expect(said(r)).toContain('404 Project Not Found');
  expect(said(r)).toContain('check that the project acme/platform/other exists (--repo / CI_PROJECT_PATH)');
});

test('GIVEN the automatic step lacks a required approval WHEN rollgen pr runs THEN it holds with the reason, one merge attempt a run, and merges once approved', async () => {
  expect((await h.pr()).code).toBe(0);
  h.mergeAsPerson(1, new Date(AT.getTime() + 600_000));
  expect((await h.pr()).code).toBe(0);
  const select = [...h.fake.mrs.values()].find((m) => m.source_branch === 'rollgen/echo/select')!;
  h.fake.unapproved.add(select.iid);
  for (let run = 1; run <= 2; run++) {
    const r = await h.pr();
    expect(said(r)).toContain(`!${select.iid}`);
    expect(said(r)).toContain(
      'it needs the approvals the project requires; a person approves it, then the next run merges it',
    );
    expect(calls('PUT /api/v4/projects/:id/merge_requests/:iid/merge')).toBe(run);
    expect(select.state).toBe('opened');
  }
  h.fake.unapproved.delete(select.iid);
  expect((await h.pr()).code).toBe(0);
  expect(select.state).toBe('merged');
});

test("GIVEN GitLab answers 429 with Retry-After WHEN rollgen pr runs THEN it waits as told and goes on; the run's output says nothing of it", async () => {
  h.fake.answer(
    'GET /api/v4/projects/:id/merge_requests',
    429,
    { message: 'Retry later' },
    {
      'retry-after': '1',
      'ratelimit-remaining': '0',
    },
  );
  const r = await h.pr();
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  expect(r.stdout).toContain('echo: opened !1');
  // The refused scan and its retry: the run's one paged scan.
  expect(calls('GET /api/v4/projects/:id/merge_requests')).toBe(2);
});
