import type { GiteaHttp } from './http';

/** The client and the repository every request is about; `path` is `/repos/{owner}/{repo}`. */
export interface GiteaRepo {
  readonly http: GiteaHttp;
  readonly owner: string;
  readonly repo: string;
  readonly path: string;
}

/** Gitea's PullRequest, the fields rollgen reads (swagger: definitions.PullRequest). */
export interface ApiPull {
  readonly number: number;
  readonly html_url: string;
  readonly state: 'open' | 'closed';
  readonly title: string;
  readonly body: string | null;
  readonly labels: readonly { readonly id: number; readonly name: string }[] | null;
  readonly head: { readonly ref: string; readonly sha: string; readonly repo?: { readonly full_name: string } | null };
  readonly base: { readonly ref: string };
  readonly merged: boolean;
  readonly merged_at: string | null;
  readonly merged_by?: { readonly login: string } | null;
  readonly merge_commit_sha: string | null;
  readonly closed_at: string | null;
  readonly updated_at: string;
}
