import { GitRunner, runGit } from '../io/git';
import { RunContext } from '../app/context';
import { ScmClient, ScmConnection } from '../scm/types';

export interface FlowEdges {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => Date;
  readonly scm: (connection: ScmConnection) => ScmClient;
  readonly git: GitRunner;
}

/** The process's environment, clock, GitHub client and git, unless the caller (a test) injected its own. */
export function flowEdges(ctx: RunContext): FlowEdges {
  const env = ctx.env ?? process.env;
  return {
    env,
    now: ctx.now ?? (() => new Date()),
    scm: ctx.scm ?? ((connection) => connectForge(connection, env)),
    git: ctx.git ?? runGit,
  };
}

/** Each forge's client loads only when a command talks to that forge, so start-up loads none. */
function connectForge(connection: ScmConnection, env: FlowEdges['env']): ScmClient {
  if (connection.forge === 'gitlab') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const gitlab = require('../scm/gitlab') as typeof import('../scm/gitlab');
    return gitlab.createGitLabScm(connection, { requestTimeoutMs: requestTimeoutMs(env), ...testRetryUnit(env) });
  }
  if (connection.forge === 'gitea') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const gitea = require('../scm/gitea') as typeof import('../scm/gitea');
    return gitea.createGiteaScm(connection, { requestTimeoutMs: requestTimeoutMs(env), ...testRetryUnit(env) });
  }
  return connectGitHub(connection, env);
}

/** Octokit loads only when a command talks to GitHub, so render and plan start without it. */
function connectGitHub(connection: ScmConnection, env: FlowEdges['env']): ScmClient {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const github = require('../scm/github') as typeof import('../scm/github');
  return github.createGitHubScm(connection, { requestTimeoutMs: requestTimeoutMs(env), ...testRetryUnit(env) });
}

/**
 * Test seam, like ROLLGEN_TEST_CRASH_AT: `ROLLGEN_TEST_RETRY_UNIT_MS` shortens the client's back-off
 * and write pacing (milliseconds per second of them), so a process test of the bounded retries does
 * not sleep 14 s, nor one that opens a PR a second per write.
 * Unset, production back-off applies.
 */
function testRetryUnit(env: FlowEdges['env']): { retryUnitMs?: number } {
  const ms = Number(env.ROLLGEN_TEST_RETRY_UNIT_MS);
  return env.ROLLGEN_TEST_RETRY_UNIT_MS && Number.isFinite(ms) && ms > 0 ? { retryUnitMs: ms } : {};
}

/** ROLLGEN_GITHUB_TIMEOUT: seconds one GitHub request attempt may take (default 15; GitHub itself gives up after 10). */
function requestTimeoutMs(env: FlowEdges['env']): number | undefined {
  const seconds = Number(env.ROLLGEN_GITHUB_TIMEOUT);
  return env.ROLLGEN_GITHUB_TIMEOUT && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}
