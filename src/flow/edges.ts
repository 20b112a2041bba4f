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
  return {
    env: ctx.env ?? process.env,
    now: ctx.now ?? (() => new Date()),
    scm: ctx.scm ?? connectGitHub,
    git: ctx.git ?? runGit,
  };
}

/** Octokit loads only when a command talks to GitHub, so render and plan start without it. */
function connectGitHub(connection: ScmConnection): ScmClient {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const github = require('../scm/github') as typeof import('../scm/github');
  return github.createGitHubScm(connection);
}
