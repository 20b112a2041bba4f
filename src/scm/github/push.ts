import { execFile, execFileSync } from 'node:child_process';
import { redact } from './errors';

/**
 * `git push` to GitHub with the run's token, which never appears in argv, in the remote URL or in
 * what is printed: the checkout's persisted credentials (actions/checkout's http.extraheader) when
 * they are this token's, otherwise the same header injected through GIT_CONFIG_* variables.
 */
export interface PushTarget {
  /** The checkout whose object database holds the commits. */
  readonly repo: string;
  /** https://HOST/owner/name.git */
  readonly url: string;
  readonly token: string;
  /** Milliseconds the push may take before it is ended and counts as failed. */
  readonly timeoutMs: number;
}

export interface RefUpdate {
  readonly branch: string;
  readonly sha: string;
  /** The sha the branch must still hold; null: it must not exist; undefined: move it whatever it holds. */
  readonly expected: string | null | undefined;
}

/**
 * Per branch: pushed (or already there); stale: not where the push expected it (its lease, or a
 * push at the same moment); held: rejected only because another ref failed the atomic push;
 * rejected: refused for another reason (permissions, protection, a hook).
 */
export type RefStatus = 'pushed' | 'stale' | 'held' | 'rejected';

export interface PushOutcome {
  readonly refs: ReadonlyMap<string, RefStatus>;
  /** git's own words (token redacted), for the message when the push did not go through. */
  readonly detail: string;
}

/** One atomic push of every update, each ref leased to its expected value. */
export async function pushAtomic(target: PushTarget, updates: readonly RefUpdate[]): Promise<PushOutcome> {
  const specs = updates.flatMap((u) => {
    const ref = `refs/heads/${u.branch}`;
    if (u.expected === undefined) return [`+${u.sha}:${ref}`];
    return [`--force-with-lease=${ref}:${u.expected ?? ''}`, `${u.sha}:${ref}`];
  });
  const run = await gitAsync(target, ['push', '--atomic', '--porcelain', target.url, ...specs]);
  const refs = parsePorcelain(run.stdout);
  const outcome = new Map<string, RefStatus>();
  for (const u of updates) {
    const status = refs.get(`refs/heads/${u.branch}`);
    outcome.set(
      u.branch,
      run.code === 0 && status !== 'stale' && status !== 'rejected' ? 'pushed' : (status ?? 'rejected'),
    );
  }
  return { refs: outcome, detail: redactAll(`${run.stderr}${run.stdout}`.trim(), target.token) };
}

/** Where the branches point on the remote now (absent: no such branch); no REST request. */
export async function remoteHeads(target: PushTarget, branches: readonly string[]): Promise<Map<string, string>> {
  const run = await gitAsync(target, ['ls-remote', '--heads', target.url, ...branches.map((b) => `refs/heads/${b}`)]);
  if (run.code !== 0) throw new Error(redactAll(run.stderr.trim(), target.token));
  const heads = new Map<string, string>();
  for (const line of run.stdout.split('\n')) {
    const [sha, ref] = line.split('\t');
    if (sha && ref?.startsWith('refs/heads/')) heads.set(ref.slice('refs/heads/'.length), sha);
  }
  return heads;
}

/**
 * The ref was not where the push expected it: our lease (stale info), or the server's own check when
 * another push updated it at the same moment (GitHub: cannot lock ref / failed to update ref; git's
 * receive-pack: atomic transaction failed / incorrect old value).
 */
const RACED = /stale info|atomic transaction failed|cannot lock ref|failed to update ref|incorrect old value/;

/**
 * `git push --porcelain` prints `<flag>\t<from>:<to>\t<summary>` per ref. With --atomic, one
 * failed lease rejects every ref: the lease itself says "stale info", the others "atomic push failed".
 * A push that fails before any ref (authentication, 403) prints none: every ref counts as rejected.
 */
function parsePorcelain(stdout: string): Map<string, RefStatus> {
  const out = new Map<string, RefStatus>();
  for (const line of stdout.split('\n')) {
    const m = /^(.)\t[^:]*:(\S+)\t(.*)$/.exec(line);
    if (!m) continue;
    const [, flag, ref, summary] = m;
    if (flag !== '!') out.set(ref, 'pushed');
    else if (RACED.test(summary)) out.set(ref, 'stale');
    else out.set(ref, /atomic push failed/.test(summary) ? 'held' : 'rejected');
  }
  return out;
}

/** Base64 of the basic credentials is as secret as the token: both are removed. */
function redactAll(text: string, token: string): string {
  return redact(redact(text, basicCredentials(token)), token);
}

const basicCredentials = (token: string) => Buffer.from(`x-access-token:${token}`).toString('base64');

/**
 * The environment that authenticates git to `url`: nothing to add when the checkout persisted
 * credentials for this very token. Otherwise the run's token replaces them (an empty extraheader
 * resets the list): a branch pushed with the job's token while the PR comes from an App token would
 * start no CI for the new head, since pushes by GITHUB_TOKEN trigger no workflow.
 */
export function authEnvironment(target: PushTarget): Record<string, string> {
  const base = { GIT_TERMINAL_PROMPT: '0', GCM_INTERACTIVE: 'never' };
  const header = `AUTHORIZATION: basic ${basicCredentials(target.token)}`;
  if (persistedHeaders(target).includes(header.toLowerCase())) return base;
  const n = Number(process.env.GIT_CONFIG_COUNT ?? 0) || 0;
  const key = `http.${new URL(target.url).origin}/.extraheader`;
  return {
    ...base,
    GIT_CONFIG_COUNT: String(n + 2),
    [`GIT_CONFIG_KEY_${n}`]: key,
    [`GIT_CONFIG_VALUE_${n}`]: '',
    [`GIT_CONFIG_KEY_${n + 1}`]: key,
    [`GIT_CONFIG_VALUE_${n + 1}`]: header,
  };
}

/** The extra headers git would send to the URL (actions/checkout's persisted credentials), lower-cased. */
function persistedHeaders(target: PushTarget): string {
  try {
    return execFileSync('git', ['config', '--get-urlmatch', 'http.extraheader', target.url], {
      cwd: target.repo,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).toLowerCase();
  } catch {
    return ''; // exit 1: no such setting
  }
}

interface GitRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function gitAsync(target: PushTarget, args: readonly string[]): Promise<GitRun> {
  const env = { ...process.env, ...authEnvironment(target) };
  return new Promise((resolve) => {
    execFile(
      'git',
      [...args],
      { cwd: target.repo, env, encoding: 'utf8', timeout: target.timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        const killed =
          error && error.killed ? `git ${args[0]} did not finish within ${target.timeoutMs / 1000} s\n` : '';
        resolve({ code, stdout: String(stdout), stderr: killed + String(stderr) });
      },
    );
  });
}
