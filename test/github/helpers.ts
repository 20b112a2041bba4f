import { createGitHubScm, GitHubScmOptions, LogLevel } from '../../src/scm/github';
import type { ScmClient } from '../../src/scm/types';
import { FakeGitHub, FakeGitHubOptions } from './fake-github-server';

export interface Harness {
  readonly fake: FakeGitHub;
  readonly scm: ScmClient;
  /** Every line the client logged, at every level (token already redacted by the client). */
  readonly logLines: string[];
}

/**
 * A fake GitHub and a client pointed at it. Back-off runs at 1 ms per second and writes are not
 * paced, so retries and retry-after waits cost milliseconds; everything else is production config.
 */
export async function startHarness(
  fakeOptions: FakeGitHubOptions = {},
  clientOptions: GitHubScmOptions = {},
): Promise<Harness> {
  const fake = await FakeGitHub.start(fakeOptions);
  const logLines: string[] = [];
  const log = (level: LogLevel, line: string) => void logLines.push(`${level}: ${line}`);
  const scm = createGitHubScm(
    { token: fake.token, repository: fake.repository, apiUrl: fake.apiUrl },
    { retryUnitMs: 1, paceWrites: false, log, ...clientOptions },
  );
  return { fake, scm, logLines };
}

/** Commit sha at the tip of the fake repo's default branch. */
export function mainHead(fake: FakeGitHub): string {
  return fake.state.branches.get('main') ?? '';
}

export function treeOf(fake: FakeGitHub, sha: string): string {
  return fake.state.commits.get(sha)?.tree ?? '';
}
