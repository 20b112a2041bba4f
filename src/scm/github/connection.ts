import { ScmError } from '../../errors';
import type { ScmConnection } from '../types';

export const PUBLIC_API_URL = 'https://api.github.com';

export interface RepoCoordinates {
  readonly owner: string;
  readonly repo: string;
  /** Without a trailing slash; `https://HOST/api/v3` on GitHub Enterprise Server. */
  readonly baseUrl: string;
}

/** Splits `owner/name` and normalises the API URL; refuses anything Octokit would turn into a wrong URL. */
export function parseConnection(connection: ScmConnection): RepoCoordinates {
  const match = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(connection.repository.trim());
  if (!match)
    throw new ScmError(
      'connect to GitHub',
      undefined,
      `repository must be "owner/name", got "${connection.repository}"`,
    );
  if (connection.token.length === 0)
    throw new ScmError('connect to GitHub', undefined, 'no token: set the token input or GITHUB_TOKEN');
  let url: URL;
  try {
    url = new URL(connection.apiUrl || PUBLIC_API_URL);
  } catch {
    throw new ScmError('connect to GitHub', undefined, `the API URL "${connection.apiUrl}" is not a URL`);
  }
  return { owner: match[1], repo: match[2], baseUrl: url.toString().replace(/\/+$/, '') };
}

/** Where git pushes: `<server>/<owner>/<name>.git`, the server from GITHUB_SERVER_URL or else the API URL. */
export function gitRemoteUrl(coords: RepoCoordinates, serverUrl: string | undefined): string {
  const api = coords.baseUrl;
  const server =
    serverUrl?.replace(/\/+$/, '') ||
    (/^https?:\/\/api\.github\.com$/.test(api) ? 'https://github.com' : api.replace(/\/api\/v3$/, ''));
  return `${server}/${coords.owner}/${coords.repo}.git`;
}
