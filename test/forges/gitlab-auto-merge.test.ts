/**
 * GitLab projects where "Pipelines must succeed" (only_allow_merge_if_pipeline_succeeds) and the
 * merge request's head pipeline is a merged results pipeline: when rollgen merges an automatic
 * step while that pipeline runs, GitLab answers 405 and rollgen sets auto-merge once; later runs
 * find it set, ask nothing more and hold with GitLab's reason; GitLab merges when the pipeline
 * succeeds and the next run goes on. Through bin/rollgen pr as a GitLab CI job runs it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GitLabHarness } from './gitlab-harness';

jest.setTimeout(240_000);
const CONFIG = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n    gates: {unpaused: automatic}\n';
const AT = new Date(Date.now() - 3 * 3_600_000);
const MERGE = 'PUT /api/v4/projects/:id/merge_requests/:iid/merge';
const GET_MR = 'GET /api/v4/projects/:id/merge_requests/:iid';

let h: GitLabHarness;
beforeEach(async () => {
  h = new GitLabHarness();
  await h.start(['echo'], CONFIG, AT);
  h.fake.requirePipeline = true;
});
afterEach(async () => {
  await h.stop();
  expect(h.fake.violations).toEqual([]);
});

const calls = (route: string) => h.fake.requests.filter((r) => r.route === route).length;
const newImage = (tag: string, afterMs: number) =>
  h.pushToMain(
    (repo) => {
      const file = join(repo, 'apps', 'echo', 'deployment.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/image: (\S+?):\S+/, `image: $1:${tag}`));
    },
    `echo ${tag}`,
    new Date(AT.getTime() + afterMs),
  );
const ok = (r: { code: number | null; stderr: string }) =>
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });

test('GIVEN the head pipeline of an automatic step runs WHEN rollgen pr runs THEN it sets auto-merge once, reruns hold without asking again, and GitLab merges when the pipeline succeeds', async () => {
  ok(await h.pr());
  h.mergeAsPerson(1, new Date(AT.getTime() + 600_000));
  h.fake.headPipelines.set(1, { id: 1, status: 'success' });
  ok(await h.pr()); // opens the selector switch, merged automatically once its pipeline runs
  const select = [...h.fake.mrs.values()].find((m) => m.source_branch === 'rollgen/echo/select')!;
  h.fake.headPipelines.set(select.iid, { id: 7, status: 'running' });

  const first = await h.pr();
  ok(first);
  expect(first.stdout).toContain(
    `echo: !${select.iid} not merged yet: its pipeline is running: auto-merge set; GitLab merges it when its pipeline succeeds`,
  );
  expect(select.merge_when_pipeline_succeeds).toBe(true);
  expect(select.state).toBe('opened');
  // The refused merge (405), the merge request read, the merge with auto-merge.
  expect([calls(MERGE), calls(GET_MR)]).toEqual([2, 1]);

  for (let run = 1; run <= 2; run++) {
    const again = await h.pr();
    ok(again);
    expect(again.stdout).toContain(
      `echo: !${select.iid} not merged yet: auto-merge is set; GitLab merges it when its pipeline succeeds`,
    );
    // One merge attempt and one read a run: auto-merge is not asked for again.
    expect([calls(MERGE), calls(GET_MR)]).toEqual([2 + run, 1 + run]);
    expect(select.state).toBe('opened');
  }

  h.fake.finishPipeline(select.iid, 'success');
  expect(select.state).toBe('merged');
  expect(select.merged_by).toEqual({ username: 'rollgen-bot' });
  // The next run moves on: a new image opens step 1.
  newImage('2.54', 3_600_000);
  const next = await h.pr();
  ok(next);
  expect(next.stdout).toMatch(/echo: opened !\d+/);
  expect(next.stdout).not.toContain(`!${select.iid}`);
});

test('GIVEN the pipeline of a step with auto-merge fails WHEN rollgen pr runs THEN GitLab cancelled auto-merge and rollgen neither merges nor sets it again while checks fail', async () => {
  ok(await h.pr());
  h.mergeAsPerson(1, new Date(AT.getTime() + 600_000));
  ok(await h.pr());
  const select = [...h.fake.mrs.values()].find((m) => m.source_branch === 'rollgen/echo/select')!;
  h.fake.headPipelines.set(select.iid, { id: 7, status: 'running' });
  ok(await h.pr());
  expect(select.merge_when_pipeline_succeeds).toBe(true);
  h.fake.finishPipeline(select.iid, 'failed');
  const r = await h.pr();
  // "Pipelines must succeed" and it failed: GitLab refuses; rollgen holds with its reason, never forces it.
  expect(r.stdout + r.stderr).toContain('the project requires a successful pipeline on it');
  expect(select.state).toBe('opened');
  expect(select.merge_when_pipeline_succeeds).toBe(false);
});

test('GIVEN every new merge request starts a pipeline WHEN a person runs abort --pr --merge THEN rollgen sets auto-merge and says so (exit 0), and GitLab merges the abort when the pipeline succeeds', async () => {
  h.fake.pipelineOnCreate = 'success';
  ok(await h.pr());
  h.mergeAsPerson(1, new Date(AT.getTime() + 600_000));
  ok(await h.pr()); // the selector switch, merged once its pipeline passed
  ok(await h.pr());
  newImage('2.54', 3_600_000);
  const step = await h.pr();
  ok(step);
  const first = [...h.fake.mrs.values()].find((m) => m.source_branch === 'rollgen/echo/step-1')!;
  h.mergeAsPerson(first.iid, new Date(AT.getTime() + 4_000_000)); // the canary's first step is live

  h.fake.pipelineOnCreate = 'running';
  const abort = await h.pr(['abort', 'echo', '--pr', '--merge']);
  ok(abort);
  const mr = [...h.fake.mrs.values()].find((m) => m.source_branch === 'rollgen/echo/abort')!;
  expect(abort.stdout).toContain(
    `echo: !${mr.iid} not merged yet (--merge): its pipeline is running: auto-merge set; GitLab merges it when its pipeline succeeds`,
  );
  expect([mr.state, mr.merge_when_pipeline_succeeds]).toEqual(['opened', true]);
  h.fake.finishPipeline(mr.iid, 'success');
  expect(mr.state).toBe('merged');
});
