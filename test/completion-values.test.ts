import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/**
 * Completion completes what can be known (app names of rollgen.yaml, directories where a SOURCE
 * may stand, choices, the shells) and nothing where nothing can (--step, --header): each script is
 * run by its shell, with bin/rollgen on PATH as `rollgen`, in a repository with app `shop` (issue 29 item 8).
 */
const ROOT = path.join(__dirname, '..');
let repo = '';
let bin = '';
let env: NodeJS.ProcessEnv = {};
const scripts: Record<string, string> = {};

beforeAll(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-complete-'));
  fs.cpSync(path.join(ROOT, 'examples', 'kruise-nginx', 'echoserver'), path.join(repo, 'apps', 'shop'), {
    recursive: true,
  });
  fs.writeFileSync(path.join(repo, 'rollgen.yaml'), 'apps:\n  - source: apps/*\n    output: deploy/{name}\n');
  fs.writeFileSync(path.join(repo, 'notes.txt'), 'a file, never a value of --step\n');
  bin = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-bin-'));
  fs.symlinkSync(path.join(ROOT, 'bin', 'rollgen'), path.join(bin, 'rollgen'));
  env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` };
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = spawnSync('rollgen', ['completion', shell], { env, encoding: 'utf8' });
    scripts[shell] = path.join(bin, `rollgen.${shell}`);
    fs.writeFileSync(scripts[shell], r.stdout);
  }
});
afterAll(() => {
  fs.rmSync(repo, { recursive: true, force: true });
  fs.rmSync(bin, { recursive: true, force: true });
});

const lines = (text: string) => text.split('\n').filter(Boolean).sort();

test('rollgen completion SHELL --apps lists the apps of rollgen.yaml, and nothing (exit 2) without one', () => {
  expect(spawnSync('rollgen', ['completion', 'bash', '--apps'], { cwd: repo, env, encoding: 'utf8' }).stdout).toBe(
    'shop\n',
  );
  const outside = spawnSync('rollgen', ['completion', 'bash', '--apps'], { cwd: bin, env, encoding: 'utf8' });
  expect([outside.status, outside.stdout]).toEqual([2, '']);
});

describe('bash', () => {
  function complete(words: string[]): string[] {
    const body = `source ${scripts.bash}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}\n_rollgen\nprintf '%s\\n' "\${COMPREPLY[@]}"`;
    return lines(spawnSync('bash', ['-c', body], { cwd: repo, env, encoding: 'utf8' }).stdout);
  }
  test('app names, and directories where a SOURCE may stand', () => {
    expect(complete(['rollgen', 'plan', ''])).toEqual(['apps', 'shop']);
    expect(complete(['rollgen', 'status', '--watch', 's'])).toEqual(['shop']);
  });
  test('pr takes app names only', () => {
    expect(complete(['rollgen', 'pr', ''])).toEqual(['shop']);
  });
  test('completion takes a shell, not a file', () => {
    expect(complete(['rollgen', 'completion', ''])).toEqual(['bash', 'fish', 'zsh']);
  });
  test('nothing for a value nothing can be known of; files for --config, - for -f', () => {
    for (const option of ['--step', '--header', '--host', '--token'])
      expect(complete(['rollgen', 'simulate', option, ''])).toEqual([]);
    expect(complete(['rollgen', 'plan', '-c', 'n'])).toEqual(['notes.txt']);
    expect(complete(['rollgen', 'render', '-f', ''])).toEqual(['-']);
  });
});

describe('zsh', () => {
  const zsh = (body: string) =>
    spawnSync('zsh', ['-f', '-c', `compdef() { :; }\nsource ${scripts.zsh}\n${body}`], {
      cwd: repo,
      env,
      encoding: 'utf8',
    });
  test('the app names come from rollgen.yaml', () => {
    const r = zsh('compadd() { [[ $1 == -a ]] && print -l -- ${(P)2}; }\n_rollgen_apps');
    if (r.error) return console.warn('zsh is not installed: its completion script was not run');
    expect([r.stdout, r.stderr]).toEqual(['shop\n', '']);
  });
  test('files only for --config; --step, --watch, --header complete nothing; completion offers the shells', () => {
    const text = fs.readFileSync(scripts.zsh, 'utf8');
    const filesFor = [...text.matchAll(/'(-[-\w]+)\[[^\]]*\]:+[\w-]+:_files'/g)].map((m) => m[1]);
    expect([...new Set(filesFor)]).toEqual(['-c', '--config']);
    expect(text).toContain("'--step[step (default\\: the current state)]:step: '");
    expect(text).toMatch(/'--watch\[[^\]]*\]::watch: '/);
    expect(text).toContain("'--header[request header (repeatable)]:header: '");
    expect(text).toContain("completion) _arguments '--debug[show stack traces]' '*:value:(bash zsh fish)'");
    expect(text).toContain("'*:app:_rollgen_apps_or_dirs'");
  });
});

describe('fish', () => {
  function complete(line: string): string[] | undefined {
    const r = spawnSync('fish', ['-c', `source ${scripts.fish}; complete -C '${line}'`], {
      cwd: repo,
      env,
      encoding: 'utf8',
    });
    if (r.error) return void console.warn('fish is not installed: its completion script was not run');
    return lines(r.stdout).map((l) => l.split('\t')[0]);
  }
  test('app names and directories; pr app names only; completion the shells', () => {
    expect(complete('rollgen plan ')).toEqual(['apps/', 'shop']);
    expect(complete('rollgen pr ')).toEqual(['shop']);
    expect(complete('rollgen completion ')).toEqual(['bash', 'fish', 'zsh']);
  });
  test('nothing after --step or --header; files after --config', () => {
    expect(complete('rollgen simulate --step ')).toEqual([]);
    expect(complete('rollgen simulate --header ')).toEqual([]);
    expect(complete('rollgen plan --config n')).toEqual(['notes.txt']);
  });
});
