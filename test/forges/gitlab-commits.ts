/**
 * The fake GitLab's POST /projects/:id/repository/commits ("Create a commit with multiple files
 * and actions"), answering as GitLab's Commits::CreateService does: 400 with its messages for a
 * missing field, both start_branch and start_sha, an invalid or unknown start_sha, an existing
 * branch without `force`, a file that exists (create) or does not (update, delete). The commit is
 * real: built in the bare repository with git plumbing (a scratch index, write-tree, commit-tree,
 * update-ref), so the branch serves it over git like any push.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Call, fail, FakeGitLab, ok, Reply } from './gitlab-server';

interface Action {
  readonly action?: string;
  readonly file_path?: string;
  readonly content?: string;
  readonly encoding?: string;
}

const BOT = { name: 'rollgen-bot', email: 'rollgen-bot@example.com' };

export function createCommit(s: FakeGitLab, c: Call): Reply {
  const b = c.body as Record<string, unknown>;
  const missing = ['branch', 'commit_message', 'actions'].filter((k) => b[k] === undefined || b[k] === '');
  if (missing.length > 0) return { status: 400, body: { error: missing.map((k) => `${k} is missing`).join(', ') } };
  const branch = String(b.branch);
  const startSha = b.start_sha === undefined ? undefined : String(b.start_sha);
  const startBranch = b.start_branch === undefined ? undefined : String(b.start_branch);
  if (startSha !== undefined) {
    if (startBranch !== undefined) return fail(400, "You can't pass both start_branch and start_sha");
    if (!/^[0-9a-f]{40}$/.test(startSha)) return fail(400, `Invalid start_sha '${startSha}'`);
    if (!isCommit(s.git.dir, startSha)) return fail(400, `Cannot find start_sha '${startSha}'`);
  }
  const from = startSha ?? s.head(startBranch ?? branch);
  if (!from) return fail(400, 'You can only create or edit files when you are on a branch');
  const different = startSha !== undefined || (startBranch !== undefined && startBranch !== branch);
  if (different && s.head(branch) && b.force !== true)
    return fail(400, `A branch called '${branch}' already exists. Switch to that branch in order to make changes`);
  if (!Array.isArray(b.actions) || b.actions.length === 0) return { status: 400, body: { error: 'actions is empty' } };
  const scratch = mkdtempSync(join(tmpdir(), 'fake-gitlab-index-'));
  try {
    const git = (args: string[], input?: string | Buffer) =>
      execFileSync('git', args, {
        cwd: s.git.dir,
        input,
        encoding: 'utf8',
        env: { ...process.env, GIT_INDEX_FILE: join(scratch, 'index') },
      }).trim();
    git(['read-tree', from]);
    for (const a of b.actions as Action[]) {
      const path = String(a.file_path ?? '');
      const exists = git(['ls-files', '--', path]) !== '';
      if (a.action === 'create' && exists) return fail(400, 'A file with this name already exists');
      if ((a.action === 'update' || a.action === 'delete') && !exists)
        return fail(400, "A file with this name doesn't exist");
      // --index-info works without a work tree: mode 0 removes the path.
      if (a.action === 'delete') git(['update-index', '--index-info'], `0 ${'0'.repeat(40)}\t${path}\n`);
      else if (a.action === 'create' || a.action === 'update') {
        const bytes =
          a.encoding === 'base64' ? Buffer.from(String(a.content ?? ''), 'base64') : String(a.content ?? '');
        const blob = git(['hash-object', '-w', '--stdin'], bytes);
        git(['update-index', '--index-info'], `100644 ${blob}\t${path}\n`);
      } else return { status: 400, body: { error: 'actions[0][action] does not have a valid value' } };
    }
    const tree = git(['write-tree']);
    const author = { name: String(b.author_name ?? BOT.name), email: String(b.author_email ?? BOT.email) };
    const sha = execFileSync('git', ['commit-tree', tree, '-p', from, '-m', String(b.commit_message)], {
      cwd: s.git.dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_COMMITTER_NAME: BOT.name,
        GIT_COMMITTER_EMAIL: BOT.email,
      },
    }).trim();
    git(['update-ref', `refs/heads/${branch}`, sha]);
    s.imported();
    s.apiCommits.push({ branch, sha, tree, force: b.force === true });
    const now = s.now();
    return ok(
      {
        id: sha,
        short_id: sha.slice(0, 8),
        title: String(b.commit_message).split('\n')[0],
        message: String(b.commit_message),
        author_name: author.name,
        author_email: author.email,
        authored_date: now,
        committer_name: BOT.name,
        committer_email: BOT.email,
        committed_date: now,
        created_at: now,
        parent_ids: [from],
        status: null,
        last_pipeline: null,
        web_url: `${s.serverUrl}/${s.project}/-/commit/${sha}`,
      },
      201,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function isCommit(dir: string, sha: string): boolean {
  try {
    execFileSync('git', ['cat-file', '-e', `${sha}^{commit}`], { cwd: dir, stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}
