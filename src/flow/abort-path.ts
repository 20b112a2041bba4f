import { Target } from './branch';

/** Where the PR's repository lives and which workflow runs rollgen there (rollgen.yaml `pr.workflow`). */
export interface RepoLinks {
  /** `https://github.com`, or a GitHub Enterprise Server's address. */
  readonly serverUrl: string;
  /** `owner/name`; undefined when unknown (`pr --dry-run --offline` without GITHUB_REPOSITORY). */
  readonly repository?: string;
  /** The workflow's file name under .github/workflows, e.g. `rollgen.yml`. */
  readonly workflow: string;
  /** The code host whose workflow page this is (absent: GitHub). */
  readonly forge?: 'github' | 'gitlab' | 'gitea';
}

/** How to stop this rollout: from GitHub (the workflow's dispatch) and from a shell. */
export interface AbortPath {
  /** Where the workflow runs: `GitHub`, or `Gitea` (Forgejo too). */
  readonly host: string;
  /** `rollgen abort echo --pr --merge` */
  readonly cli: string;
  /** The workflow's page, whose "Run workflow" button dispatches it; null when the repository is unknown. */
  readonly workflowUrl: string | null;
  readonly workflow: string;
  /** The dispatch inputs to choose there (GitHub cannot pre-fill them from a link). */
  readonly inputs: readonly { readonly name: string; readonly value: string }[];
  /** The same dispatch from a shell: `gh workflow run rollgen.yml -f command=abort -f app=echo -f merge=true`; none on Gitea (no gh). */
  readonly gh?: string;
}

/** Only a PR that moves a canary forward has something to abort; a clean-up or an abort does not. */
export function abortPath(app: string, target: Target, links: RepoLinks): AbortPath | null {
  if (target.kind !== 'step' && target.kind !== 'promote' && target.kind !== 'retry') return null;
  const inputs = [
    { name: 'command', value: 'abort' },
    { name: 'app', value: app },
    { name: 'merge', value: 'true' },
  ];
  const repoUrl = links.repository ? `${links.serverUrl.replace(/\/+$/, '')}/${links.repository}` : null;
  const cli = `rollgen abort ${app} --pr --merge`;
  // Gitea and Forgejo list a workflow's runs, and its "Run workflow" button, at actions?workflow=FILE.
  if (links.forge === 'gitea')
    return {
      host: 'Gitea',
      cli,
      workflowUrl: repoUrl && `${repoUrl}/actions?workflow=${encodeURIComponent(links.workflow)}`,
      workflow: links.workflow,
      inputs,
    };
  return {
    host: 'GitHub',
    cli,
    workflowUrl: repoUrl && `${repoUrl}/actions/workflows/${links.workflow}`,
    workflow: links.workflow,
    inputs,
    gh: `gh workflow run ${links.workflow} ${inputs.map((x) => `-f ${x.name}=${x.value}`).join(' ')}`,
  };
}

/**
 * The web address of the code host from its API address: GITHUB_SERVER_URL when the runner sets it,
 * github.com for api.github.com, else a GitHub Enterprise Server's `https://HOST/api/v3` without `/api/v3`.
 */
export function serverUrlOf(apiUrl: string, serverUrl: string | undefined): string {
  if (serverUrl) return serverUrl.replace(/\/+$/, '');
  const api = apiUrl.replace(/\/+$/, '');
  if (/^https?:\/\/api\.github\.com$/.test(api)) return 'https://github.com';
  // GitHub Enterprise Server's API is at /api/v3, Gitea's and Forgejo's at /api/v1.
  return api.replace(/\/api\/v[13]$/, '');
}
