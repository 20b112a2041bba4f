/**
 * The Action as Gitea's and Forgejo's runners run it (act: the GitHub-compatible variables plus
 * GITEA_ACTIONS, the job token as the token input), from its sources: unchanged, it picks the
 * Gitea client, pushes the step branch and opens the PR on Gitea, and writes its outputs.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAction } from '../../action/src/run-action';
import { GiteaHarness } from './gitea-harness';

jest.setTimeout(120_000);

test('GIVEN Gitea Actions variables WHEN the Action runs unchanged THEN it opens the step PR on Gitea and reports it in its outputs', async () => {
  const h = new GiteaHarness();
  const repo = await h.start(
    ['echo'],
    'apps:\n  - source: apps/echo\n    output: deploy/echo\n',
    new Date('2026-03-01T09:00:00Z'),
  );
  const out = join(tmpdir(), `rollgen-gitea-action-${process.pid}`);
  writeFileSync(`${out}.output`, '');
  writeFileSync(`${out}.summary`, '');
  try {
    let stdout = '';
    const code = await runAction(
      {
        PATH: process.env.PATH,
        HOME: process.env.HOME ?? tmpdir(),
        GITEA_ACTIONS: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_REPOSITORY: h.server.repository,
        GITHUB_SERVER_URL: h.server.serverUrl,
        GITHUB_API_URL: h.server.apiUrl,
        GITHUB_WORKSPACE: repo,
        GITHUB_OUTPUT: `${out}.output`,
        GITHUB_STEP_SUMMARY: `${out}.summary`,
        INPUT_TOKEN: h.server.token,
        INPUT_CONFIG: 'rollgen.yaml',
        ROLLGEN_TEST_RETRY_UNIT_MS: '5',
      },
      { stdout: (t) => void (stdout += t), stderr: (t) => void (stdout += t) },
    );
    expect({ code, stdout }).toMatchObject({ code: 0 });
    const [adopt] = h.changes();
    expect(adopt).toMatchObject({ branch: 'rollgen/echo/adopt', state: 'open' });
    expect(h.server.remote.pushes).toBe(1);
    const outputs = readFileSync(`${out}.output`, 'utf8');
    expect(outputs).toContain(`opened=[${adopt.number}]\n`);
    expect(outputs).toContain(`${h.server.serverUrl}/acme/deploy/pulls/${adopt.number}`);
    expect(stdout).not.toContain(h.server.token);
    expect(h.violations()).toEqual([]);
  } finally {
    rmSync(`${out}.output`, { force: true });
    rmSync(`${out}.summary`, { force: true });
    await h.stop();
  }
});
