import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** What README's install section tells a person to run works for a user without root (issue 29 item 7). */
const ROOT = path.join(__dirname, '..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };

test('the tarball `npm run tarball` leaves in the checkout is ignored by git', () => {
  const r = spawnSync('git', ['check-ignore', '--no-index', '-q', `rollgen-${pkg.version}.tgz`], { cwd: ROOT });
  expect(r.status).toBe(0);
});

test("README's zsh completion lines work in a scratch home: nothing written outside it", () => {
  const block = /```sh\n(source <\(rollgen completion bash\)[\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const zshLines = block.split('\n').filter((l) => /zfunc|compinit/.test(l) && !l.startsWith('#'));
  expect(zshLines).toHaveLength(2);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-home-'));
  const bin = path.join(home, 'bin');
  fs.mkdirSync(bin);
  fs.symlinkSync(path.join(ROOT, 'bin', 'rollgen'), path.join(bin, 'rollgen'));
  const env = { ...process.env, HOME: home, PATH: `${bin}${path.delimiter}${process.env.PATH}` };
  const zsh = (script: string) => spawnSync('zsh', ['-f', '-c', script], { cwd: home, env, encoding: 'utf8' });
  const saved = zsh(zshLines[0]);
  if (saved.error) return console.warn('zsh is not installed: the README lines were not run');
  expect([saved.status, saved.stderr]).toEqual([0, '']);
  // A new shell with the ~/.zshrc line knows rollgen's completion function.
  const loaded = zsh(`${zshLines[1]}\nprint -r -- $_comps[rollgen]`);
  fs.rmSync(home, { recursive: true, force: true });
  expect([loaded.stdout, loaded.stderr]).toEqual(['_rollgen\n', '']);
  expect(readme).not.toContain('${fpath[1]}');
});
