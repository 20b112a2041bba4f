/** Choosing GitLab and reading its connection, as a user meets them through bin/rollgen. */
import { rmSync } from 'node:fs';
import { makeRepo } from '../helpers/git-repo';
import { runPr } from './harness';

jest.setTimeout(60_000);
let repo: string;
beforeAll(() => {
  repo = makeRepo(
    ['echo'],
    'apps:\n  - source: apps/echo\n    output: deploy/echo\n',
    new Date('2026-03-01T10:00:00Z'),
  );
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const CI = { GITLAB_CI: 'true', CI_PROJECT_PATH: 'acme/platform/deploy', CI_SERVER_URL: 'http://127.0.0.1:9' };

test('GIVEN a GitLab CI job with only CI_JOB_TOKEN WHEN rollgen pr runs THEN it refuses, saying the job token cannot open merge requests and which variable to set', async () => {
  const r = await runPr(repo, { ...CI, CI_JOB_TOKEN: 'job-token' });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('set it as the masked CI/CD variable ROLLGEN_GITLAB_TOKEN');
  expect(r.stderr).toContain('CI_JOB_TOKEN is set but cannot be used');
  expect(r.stderr).not.toContain('GITHUB_TOKEN');
});

test('GIVEN no project path WHEN rollgen pr --forge gitlab runs THEN it asks for group/project (subgroups allowed)', async () => {
  const r = await runPr(repo, { ROLLGEN_FORGE: 'gitlab', ROLLGEN_GITLAB_TOKEN: 'glpat-0123456789abcdef' });
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/GitLab flow needs the project path as group\/project/);
});

test('GIVEN ROLLGEN_FORGE=bitbucket WHEN rollgen pr runs THEN it names the three forges', async () => {
  const r = await runPr(repo, { ROLLGEN_FORGE: 'bitbucket', GITHUB_TOKEN: 'x' });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('ROLLGEN_FORGE must be github, gitlab or gitea (got "bitbucket")');
});
