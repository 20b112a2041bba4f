import type { ScmClient, ScmConnection } from '../types';
export interface GitLabScmOptions { readonly requestTimeoutMs?: number; readonly retryUnitMs?: number }
export function createGitLabScm(_connection: ScmConnection, _options: GitLabScmOptions = {}): ScmClient {
  throw new Error('not yet');
}
