/**
 * Commit statuses and check runs through the Octokit ScmClient against the fake GitHub, every
 * exchange checked against GitHub's OpenAPI description: what the health gate reads and how
 * rollgen records an analysis as a check run.
 */
import { Harness, mainHead, startHarness } from './helpers';

let h: Harness;
beforeEach(async () => (h = await startHarness()));
afterEach(async () => {
  await h.fake.close();
  expect(h.fake.violations).toEqual([]);
});

test('GIVEN statuses posted by Argo CD and Flux WHEN read THEN the latest per context with its time, in one request', async () => {
  const sha = mainHead(h.fake);
  h.fake.state.addStatus(sha, 'continuous-delivery/echo', 'success');
  h.fake.state.addStatus(sha, 'kustomization/echo/6f2a1b3c', 'failure');
  const statuses = await h.scm.commitStatuses(sha);
  expect(statuses.map((s) => [s.context, s.state])).toEqual([
    ['continuous-delivery/echo', 'success'],
    ['kustomization/echo/6f2a1b3c', 'failure'],
  ]);
  expect(statuses.every((s) => !Number.isNaN(Date.parse(s.updatedAt)))).toBe(true);
  expect(h.fake.log()).toEqual(['GET /commits/{ref}/status']);
});

test('GIVEN check runs WHEN read by name THEN only that name, with its output, in one request', async () => {
  const sha = mainHead(h.fake);
  h.fake.state.addCheckRun(sha, 'deploy echo', 'completed', 'success');
  h.fake.state.addCheckRun(sha, 'lint', 'in_progress');
  expect((await h.scm.checkRuns(sha)).map((r) => r.name)).toEqual(['deploy echo', 'lint']);
  const named = await h.scm.checkRuns(sha, 'deploy echo');
  expect(named).toEqual([expect.objectContaining({ name: 'deploy echo', status: 'completed', conclusion: 'success' })]);
  expect(h.fake.log()).toEqual(['GET /commits/{ref}/check-runs', 'GET /commits/{ref}/check-runs']);
});

test('GIVEN no run WHEN put twice THEN one run is created, then updated in place, one request each', async () => {
  const sha = mainHead(h.fake);
  const output = { title: 'analysis running', summary: '| metric |', text: 'record v1' };
  const created = await h.scm.putCheckRun({ sha, name: 'rollgen/analysis echo', status: 'in_progress', output });
  const updated = await h.scm.putCheckRun({
    sha,
    name: 'rollgen/analysis echo',
    id: created.id,
    status: 'completed',
    conclusion: 'failure',
    output: { ...output, title: 'analysis failed', text: 'record v2' },
  });
  expect(updated.id).toBe(created.id);
  const runs = await h.scm.checkRuns(sha, 'rollgen/analysis echo');
  expect(runs).toHaveLength(1);
  expect(runs[0]).toMatchObject({ conclusion: 'failure', output: { title: 'analysis failed', text: 'record v2' } });
  expect(h.fake.log()).toEqual([
    'POST /check-runs',
    'PATCH /check-runs/{check_run_id}',
    'GET /commits/{ref}/check-runs',
  ]);
});

test('GIVEN a token without checks: write WHEN a check run is created or updated THEN the error says what to grant', async () => {
  const sha = mainHead(h.fake);
  const output = { title: 'analysis running', summary: '| metric |' };
  const denied = { status: 403, body: { message: 'Resource not accessible by integration' } };
  h.fake.inject({ method: 'POST', route: '/repos/{owner}/{repo}/check-runs', ...denied });
  await expect(
    h.scm.putCheckRun({ sha, name: 'rollgen/analysis echo', status: 'in_progress', output }),
  ).rejects.toThrow(
    `create check run "rollgen/analysis echo" on ${sha.slice(0, 12)} in octo/demo: Resource not accessible by integration; grant the token checks: write (rollgen records each analysis as a check run; in a workflow, under permissions:, for a GitHub App, in its permissions) (HTTP 403)`,
  );
  const run = await h.scm.putCheckRun({ sha, name: 'rollgen/analysis echo', status: 'in_progress', output });
  h.fake.inject({ method: 'PATCH', route: '/repos/{owner}/{repo}/check-runs/{check_run_id}', ...denied });
  await expect(
    h.scm.putCheckRun({
      sha,
      name: 'rollgen/analysis echo',
      id: run.id,
      status: 'completed',
      conclusion: 'success',
      output,
    }),
  ).rejects.toThrow(/^update check run .*; grant the token checks: write/);
});

test('GIVEN a 403 that is not about check runs WHEN reading THEN no checks: write advice', async () => {
  h.fake.inject({
    method: 'GET',
    route: '/repos/{owner}/{repo}/commits/{ref}/check-runs',
    status: 403,
    body: { message: 'Resource not accessible by integration' },
  });
  await expect(h.scm.checkRuns(mainHead(h.fake))).rejects.toThrow(
    /Resource not accessible by integration \(HTTP 403\)$/,
  );
});
