import { GitRunner, runGit } from '../io/git';
import { RunContext } from '../run/context';
import { createGitHubScm } from '../scm/github';
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
    scm: ctx.scm ?? createGitHubScm,
    git: ctx.git ?? runGit,
  };
}
