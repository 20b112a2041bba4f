import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { git } from '../helpers/git-repo';
import { BIN, makeAppDir } from '../helpers/rollout-dir';

const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'kruise-nginx', 'echoserver');

/** Runs bin/rollgen with its stdout reader already gone, as `rollgen ... | head -0` leaves it. */
function runWithClosedStdout(dir: string, args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(BIN, [...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

test('a closed stdout ends quietly with exit 0 after the work is committed', async () => {
  const dir = makeAppDir('rollgen-pipe-', EXAMPLE);
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['add', '.']);
  git(dir, ['commit', '-qm', 'source']);
  const r = await runWithClosedStdout(dir, ['advance', 'src', 'out', '--commit']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(git(dir, ['log', '--format=%s', '-1'])).toMatch(/^rollgen\(src\): /);
  expect(fs.existsSync(path.join(dir, 'out', 'rollgen-status.yaml'))).toBe(true);
  // A failing command keeps its own exit status and still tells stderr why.
  const bad = await runWithClosedStdout(dir, ['abort', 'nowhere', 'out']);
  expect(bad.code).toBe(2);
  fs.rmSync(dir, { recursive: true, force: true });
});
