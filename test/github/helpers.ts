import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** The fake's main branch is the checkout's HEAD, under git's own commit and tree ids (files as committed). */
export function seedFromCheckout(fake: FakeGitHub, repo: string): void {
  const run = (args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' });
  const head = run(['rev-parse', 'HEAD']).trim();
  const tree = run(['rev-parse', 'HEAD^{tree}']).trim();
  const paths = run(['ls-files']).split('\n').filter(Boolean);
  fake.state.trees.set(tree, new Map(paths.map((p) => [p, readFileSync(join(repo, p), 'utf8')])));
  fake.state.commits.set(head, { sha: head, tree, parents: [], message: 'initial' });
  fake.state.branches.set('main', head);
  fake.git?.seed(repo);
}
