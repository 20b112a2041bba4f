/**
 * What every forge's test server offers the shared flow scenarios (scenarios.ts): a loopback forge
 * backed by a real bare git repository, a checkout of it where `rollgen pr` runs as a scheduled CI
 * job would (a fresh fetch of the base before each run), and the acts of people and engines:
 * merging or closing a change request in the UI, pushing to main, Flux or Argo CD posting a commit
 * status. Each forge's harness file implements it over its own server.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { git } from '../helpers/git-repo';
import { ProcessResult, runProcess } from '../helpers/run-process';

export const BIN = join(__dirname, '..', '..', 'bin', 'rollgen');

/** A change request as the forge shows it (GitHub pull request, GitLab merge request). */
export interface Change {
  readonly number: number;
  /** The forge's own reference: `#12` on GitHub and Gitea, `!12` on GitLab. */
  readonly ref: string;
  readonly branch: string;
  readonly title: string;
  readonly body: string;
  readonly labels: readonly string[];
  readonly state: 'open' | 'closed' | 'merged';
}

export interface ForgeRun extends ProcessResult {
  /** API requests this run sent (git pushes not included). */
  readonly requests: number;
}

export type StatusState = 'pending' | 'success' | 'failure' | 'error';

export interface ForgeHarness {
  readonly forge: 'github' | 'gitlab' | 'gitea';
  /** A server and a checkout with `apps` (copies of the Kruise echoserver example) and rollgen.yaml, all on main at `at`. */
  start(apps: readonly string[], config: string, at: Date): Promise<string>;
  /** The checkout rollgen runs in. */
  readonly repo: string;
  /** `rollgen pr` (or `command`, e.g. `status --pr`) through bin/rollgen with the forge's CI variables, after the checkout fetched the base. */
  pr(command?: readonly string[]): Promise<ForgeRun>;
  /** The commit main points at on the forge now. */
  mainHead(): string;
  /** Every change request, oldest first. */
  changes(): Change[];
  /** A person merges it in the UI: a merge commit dated `at` on main. */
  mergeAsPerson(number: number, at: Date): void;
  closeAsPerson(number: number): void;
  /** A person pushes a commit made in the checkout (`change` edits its files) to main, dated `at`. */
  pushToMain(change: (repo: string) => void, message: string, at: Date): void;
  /** A commit status on `sha`, as Flux's notification-controller or Argo CD Notifications posts it. */
  postStatus(sha: string, context: string, state: StatusState, at?: Date): void;
  /** The states rollgen recorded for analysis `name` on `sha` (GitHub: check run conclusions; others: commit status states). */
  analysisRecords(sha: string, name: string): string[];
  /** The next call of every API endpoint the server has answers 502 (once per endpoint). */
  failFirstCallOfEveryEndpoint(): void;
  /** Problems the server saw with rollgen's requests (shapes its forge's API would refuse). */
  violations(): string[];
  stop(): Promise<void>;
}

/** Brings the checkout to the remote's main, as a scheduled job's fresh checkout would be. */
export function syncCheckout(repo: string, bare: string): void {
  git(repo, ['fetch', '--quiet', bare, 'main']);
  git(repo, ['reset', '--quiet', '--hard', 'FETCH_HEAD']);
}

/** Pushes the checkout's HEAD to the bare repository's main (a person's push). */
export function pushHead(repo: string, bare: string): void {
  execFileSync('git', ['push', '--quiet', bare, 'HEAD:refs/heads/main'], { cwd: repo, stdio: 'pipe' });
}

/** A merge commit of `head` into `base` in the bare repository, with `head`'s tree (a step branch is base plus one commit), dated `at`. */
export function mergeInBare(bare: string, base: string, head: string, message: string, at: Date): string {
  const tree = git(bare, ['rev-parse', `${head}^{tree}`]).trim();
  const sha = git(bare, ['commit-tree', tree, '-p', base, '-p', head, '-m', message], at).trim();
  git(bare, ['update-ref', 'refs/heads/main', sha, base]);
  return sha;
}

/** Runs bin/rollgen pr in `repo` with exactly `env` added to the test's environment. */
export function runPr(
  repo: string,
  env: Readonly<Record<string, string>>,
  command: readonly string[] = ['pr'],
): Promise<ProcessResult> {
  const base = { ...process.env };
  // The runner's own CI variables must not pick the forge: each harness says which it is.
  for (const k of ['GITLAB_CI', 'GITEA_ACTIONS', 'FORGEJO_ACTIONS', 'ROLLGEN_FORGE', 'GITHUB_TOKEN', 'CI_JOB_TOKEN'])
    delete base[k];
  return runProcess(process.execPath, [BIN, ...command], {
    cwd: repo,
    env: { ...base, ROLLGEN_TEST_RETRY_UNIT_MS: '5', ...env },
  });
}

/** The "git push ... was refused" notices split from the rest of a run's stderr. */
export function takeNotices(stderr: string): { stderr: string; notices: string[] } {
  const lines = stderr.split('\n');
  const refused = (l: string) => /^rollgen: git push to \S+ was refused/.test(l);
  return { stderr: lines.filter((l) => !refused(l)).join('\n'), notices: lines.filter(refused) };
}
