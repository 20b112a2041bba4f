import type { GitHubOctokit } from './octokit';

/** The client and the repository every request is about. */
export interface GitHubRepo {
  readonly octokit: GitHubOctokit;
  readonly owner: string;
  readonly repo: string;
}
