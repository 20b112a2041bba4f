/**
 * The loopback Gitea's file and branch writes, as Gitea's API reference and its services answer
 * them: POST /contents (ChangeFiles: create/update/delete with a file's blob sha, `branch` to start
 * from, `new_branch`; 404 for a branch that is not there, 422 for a new_branch that exists, a file
 * that exists on create, a sha that does not match; 201 with the commit and its parents), DELETE
 * /branches/{branch} (204; it closes the open PRs whose head it is, as Gitea's DeleteBranch does),
 * GET /git/trees/{sha} (paged at 1000 entries, `truncated` while more follow). Commits are real:
 * built in the bare repository with a scratch index, write-tree, commit-tree and update-ref.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Call, Reply, Route } from './routes';

const REPO = '/repos/{owner}/{repo}';
const fail = (status: number, message: string): Reply => ({
  status,
  body: { message, url: 'https://gitea.example/api/swagger' },
});

interface FileOp {
  readonly operation?: string;
  readonly path?: string;
  readonly content?: string;
  readonly sha?: string;
}

function changeFiles(c: Call): Reply {
  const heads = c.git.heads();
  const from = c.body.branch ?? 'main';
  if (!heads.has(from)) return fail(404, `branch does not exist [name: ${from}]`);
  const target = c.body.new_branch || from;
  if (c.body.new_branch && heads.has(c.body.new_branch))
    return fail(422, `branch already exists [name: ${c.body.new_branch}]`);
  const ops = (c.body.files ?? []) as FileOp[];
  if (ops.length === 0) return fail(422, 'files: Required');
  const scratch = mkdtempSync(join(tmpdir(), 'fake-gitea-index-'));
  try {
    const env = { ...process.env, GIT_INDEX_FILE: join(scratch, 'index') };
    const git = (args: string[], input?: string | Buffer) =>
      execFileSync('git', args, { cwd: c.git.dir(), input, encoding: 'utf8', env }).trim();
    const parent = heads.get(from)!;
    git(['read-tree', parent]);
    for (const op of ops) {
      const path = String(op.path ?? '');
      const current = git(['ls-files', '-s', '--', path]).split(' ')[1];
      if (op.operation === 'create' && current) return fail(422, `repository file already exists [path: ${path}]`);
      if (op.operation !== 'create' && !current) return fail(404, `repository file does not exist [path: ${path}]`);
      if (op.operation !== 'create' && op.sha !== current)
        return fail(422, `sha does not match [given: ${op.sha ?? ''}, expected: ${current}]`);
      if (op.operation === 'delete') git(['update-index', '--index-info'], `0 ${'0'.repeat(40)}\t${path}\n`);
      else if (op.operation === 'create' || op.operation === 'update') {
        const blob = git(['hash-object', '-w', '--stdin'], Buffer.from(String(op.content ?? ''), 'base64'));
        git(['update-index', '--index-info'], `100644 ${blob}\t${path}\n`);
      } else return fail(422, `files[].operation: invalid operation [${op.operation}]`);
    }
    const tree = git(['write-tree']);
    const who = (x: { name?: string; email?: string } | undefined) => ({
      name: x?.name ?? 'rollgen-bot',
      email: x?.email ?? 'rollgen-bot@example.com',
    });
    const author = who(c.body.author ?? c.body.committer);
    const committer = who(c.body.committer ?? c.body.author);
    const sha = execFileSync('git', ['commit-tree', tree, '-p', parent, '-m', c.body.message || 'Update files'], {
      cwd: c.git.dir(),
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_COMMITTER_NAME: committer.name,
        GIT_COMMITTER_EMAIL: committer.email,
        ...(c.body.dates?.author ? { GIT_AUTHOR_DATE: c.body.dates.author } : {}),
        ...(c.body.dates?.committer ? { GIT_COMMITTER_DATE: c.body.dates.committer } : {}),
      },
    }).trim();
    git(['update-ref', `refs/heads/${target}`, sha, c.body.new_branch ? '' : parent]);
    c.git.changed({ branch: target, sha, tree });
    const api = `${c.site.origin}/api/v1/repos/${c.site.owner}/${c.site.name}`;
    return {
      status: 201,
      body: {
        files: ops.map((op) => ({ path: op.path, type: 'file' })),
        commit: {
          url: `${api}/git/commits/${sha}`,
          sha,
          html_url: `${c.site.origin}/${c.site.owner}/${c.site.name}/commit/${sha}`,
          author: { ...author, date: c.body.dates?.author ?? c.state.now() },
          committer: { ...committer, date: c.body.dates?.committer ?? c.state.now() },
          parents: [{ url: `${api}/git/commits/${parent}`, sha: parent }],
          message: c.body.message || 'Update files',
          tree: { url: `${api}/git/trees/${tree}`, sha: tree },
        },
        verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' },
      },
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function deleteBranch(c: Call): Reply {
  const branch = c.params.branch;
  if (branch === 'main') return fail(403, 'can not delete default branch');
  if (!c.git.heads().has(branch)) return fail(404, 'The branch does not exist.');
  execFileSync('git', ['update-ref', '-d', `refs/heads/${branch}`], { cwd: c.git.dir() });
  const now = c.state.now();
  const open = [...c.state.pulls.values()].filter((p) => p.state === 'open' && p.head === branch);
  for (const p of open) Object.assign(p, { state: 'closed', closedAt: now, updatedAt: now });
  c.git.changed({ branch, closed: open.length });
  return { status: 204 };
}

function gitTree(c: Call): Reply {
  const recursive = c.query.get('recursive') === 'true';
  let listed: string;
  try {
    listed = execFileSync('git', ['ls-tree', ...(recursive ? ['-r', '-t'] : []), '-z', c.params.sha], {
      cwd: c.git.dir(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch {
    return fail(400, `sha not found [${c.params.sha}]`);
  }
  const entries = listed
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf('\t');
      const [mode, type, sha] = line.slice(0, tab).split(' ');
      return { path: line.slice(tab + 1), mode, type, size: 0, sha, url: '' };
    });
  const perPage = Math.min(Number(c.query.get('per_page') ?? 1000) || 1000, 1000);
  const page = Math.max(Number(c.query.get('page') ?? 1) || 1, 1);
  const tree = entries.slice((page - 1) * perPage, page * perPage);
  return {
    status: 200,
    body: {
      sha: c.params.sha,
      url: c.self,
      tree,
      truncated: page * perPage < entries.length,
      page,
      total_count: entries.length,
    },
  };
}

export const contentRoutes: Route[] = [
  {
    method: 'POST',
    path: `${REPO}/contents`,
    scope: 'repository',
    fields: ['author', 'branch', 'committer', 'dates', '!files', 'message', 'new_branch', 'signoff'],
    handle: changeFiles,
  },
  { method: 'DELETE', path: `${REPO}/branches/{branch}`, scope: 'repository', handle: deleteBranch },
  { method: 'GET', path: `${REPO}/git/trees/{sha}`, scope: 'repository', handle: gitTree },
];
