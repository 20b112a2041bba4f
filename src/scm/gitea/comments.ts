import { GiteaHttpError } from './http';
import type { GiteaRepo } from './repo';

/** Gitea's Comment (swagger: definitions.Comment), the fields rollgen reads. */
export interface ApiComment {
  readonly id: number;
  readonly html_url: string;
  readonly body: string;
}

/**
 * One request: POST /issues/{n}/comments (a PR is an issue to Gitea). Not idempotent, so not
 * retried blindly: after a 5xx or no answer, GET /issues/{n}/comments tells whether it landed,
 * and only if not is it posted once more. A lost answer never leaves two identical comments.
 */
export async function createComment(gh: GiteaRepo, number: number, body: string): Promise<ApiComment> {
  const post = () =>
    gh.http.request<ApiComment>('POST', `${gh.path}/issues/${number}/comments`, { body: { body }, once: true });
  try {
    return (await post()).data;
  } catch (error) {
    if (!(error instanceof GiteaHttpError) || (error.status !== undefined && error.status < 500)) throw error;
    // Gitea lists an issue's comments in one answer (no pages).
    const { data } = await gh.http.request<ApiComment[]>('GET', `${gh.path}/issues/${number}/comments`);
    return data.find((c) => c.body === body) ?? (await post()).data;
  }
}

/** One request: PATCH /issues/comments/{id} (idempotent: retried like a read). */
export async function editComment(gh: GiteaRepo, id: number, body: string): Promise<ApiComment> {
  return (await gh.http.request<ApiComment>('PATCH', `${gh.path}/issues/comments/${id}`, { body: { body } })).data;
}

/** One request: GET /issues/comments/{id}; undefined when it is gone (a person deleted it). */
export async function readComment(gh: GiteaRepo, id: number): Promise<ApiComment | undefined> {
  try {
    return (await gh.http.request<ApiComment>('GET', `${gh.path}/issues/comments/${id}`)).data;
  } catch (error) {
    if (error instanceof GiteaHttpError && error.status === 404) return undefined;
    throw error;
  }
}
