/**
 * Step commits built in the checkout (src/scm/github/local-commits.ts) are the commits git itself
 * makes from the same change: the parent's tree through a temporary index with the files written,
 * changed and deleted, then commit-tree with rollgen's identity dated as the parent. The user's
 * work tree, index and branches stay as they were.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCommits } from '../../src/scm/github/local-commits';
import type { CommitRequest } from '../../src/scm/types';

let repo: string;
const run = (args: string[], env: Record<string, string> = {}, input?: string) =>
  execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, ...env }, input });

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'rollgen-local-commits-'));
  run(['init', '--quiet', '--initial-branch=main']);
  for (const [file, text] of [
    ['README.md', '# r\n'],
    ['deploy/a/rollout.yaml', 'a: 1\n'],
    ['deploy/a/service.yaml', 's: 1\n'],
    ['deploy/a-b/x.yaml', 'x\n'],
    ['deploy/b/only.yaml', 'b\n'],
    ['deploy.txt', 'sorts between deploy and deploy/\n'],
  ]) {
    mkdirSync(join(repo, file, '..'), { recursive: true });
    writeFileSync(join(repo, file), text);
  }
  run(['add', '--all']);
  run(['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', 'commit', '--quiet', '-m', 'base'], {
    GIT_COMMITTER_DATE: '2026-03-01T10:00:00+02:00',
  });
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

/** What git makes of the same request through an index of its own. */
function gitsOwn(req: CommitRequest): string {
  const env = { GIT_INDEX_FILE: join(repo, '.git', 'test-index') };
  run(['read-tree', `${req.parent}^{tree}`], env);
  for (const c of req.changes) {
    if (c.content === null) run(['update-index', '--force-remove', '--', c.path], env);
    else {
      const blob = run(['hash-object', '-w', '--stdin'], {}, c.content).trim();
      run(['update-index', '--add', '--cacheinfo', `100644,${blob},${c.path}`], env);
    }
  }
  const tree = run(['write-tree'], env).trim();
  const who = { NAME: 'rollgen', EMAIL: 'rollgen@users.noreply.github.com', DATE: '2026-03-01T10:00:00+02:00' };
  const sig = Object.fromEntries(
    Object.entries(who).flatMap(([k, v]) => [
      [`GIT_AUTHOR_${k}`, v],
      [`GIT_COMMITTER_${k}`, v],
    ]),
  );
  return run(['commit-tree', tree, '-p', req.parent, '-F', '-'], sig, req.message).trim();
}

test('GIVEN writes, changes, deletions and new directories WHEN built in the checkout THEN each commit is the one git makes, and the checkout is untouched', () => {
  const parent = run(['rev-parse', 'HEAD']).trim();
  const req = (branch: string, changes: CommitRequest['changes']): CommitRequest => ({
    branch,
    parent,
    message: `rollgen(${branch}): step\n\nbody line\n`,
    changes,
  });
  const reqs = [
    req('one', [{ path: 'deploy/a/rollout.yaml', content: 'a: 2\n' }]),
    req('two', [
      { path: 'deploy/b/only.yaml', content: null },
      { path: 'deploy/c/new/deep.yaml', content: 'deep\n' },
      { path: 'deploy/a/service.yaml', content: null },
    ]),
    req('three', [
      { path: 'deploy/a-b/x.yaml', content: 'x2\n' },
      { path: 'deploy.txt', content: 'changed\n' },
    ]),
  ];
  const shas = buildCommits(repo, reqs);
  const own = reqs.map(gitsOwn);
  expect(shas).toEqual(own);
  expect(run(['fsck', '--no-dangling', '--strict']).trim()).toBe('');
  expect(run(['status', '--porcelain']).trim()).toBe('');
  expect(run(['for-each-ref', '--format=%(refname)']).trim()).toBe('refs/heads/main');
  expect(run(['ls-tree', '-r', '--name-only', shas[1]]).split('\n')).not.toContain('deploy/b/only.yaml');
});
