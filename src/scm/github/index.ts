import { ScmError } from '../../errors';
import type { ScmClient, ScmConnection } from '../types';

/** The Octokit-backed ScmClient. Placeholder until the Octokit layer lands (branch gh-octokit replaces this file). */
export function createGitHubScm(_connection: ScmConnection): ScmClient {
  throw new ScmError('connect to GitHub', undefined, 'the GitHub client is not built yet');
}
