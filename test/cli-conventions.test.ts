import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { program } from '../src/cli';
import { editDistance, suggestName } from '../src/suggest';
import { runCli } from './helpers/cli';

const ROOT = path.join(__dirname, '..');
// npm's own range semantics (semver is in the tree through npm tooling; untyped, hence require).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const semver = require('semver') as { satisfies(version: string, range: string): boolean };
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
const commands = program(() => undefined).commands;

test('--version prints the version of package.json', async () => {
  expect(await runCli(['--version'], ROOT)).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
});

test.each(commands.map((c) => c.name()))('rollgen %s --help ends with examples of that command', async (name) => {
  const help = (await runCli([name, '--help'], ROOT)).stdout;
  const examples = help.slice(help.indexOf('\nExamples:\n'));
  expect(examples).toMatch(new RegExp(`^  \\$ .*rollgen ${name}\\b`, 'm'));
});

test.each(commands.map((c) => c.name()))(
  'a run of %s builds that command alone, with the options, help and examples the whole program gives it',
  (name) => {
    const alone = program(() => undefined, name).commands;
    expect(alone.map((c) => c.name())).toEqual([name]);
    const full = commands.find((c) => c.name() === name)!;
    expect(alone[0].helpInformation()).toBe(full.helpInformation());
    expect(alone[0].options.map((o) => [o.flags, o.defaultValue, o.argChoices])).toEqual(
      full.options.map((o) => [o.flags, o.defaultValue, o.argChoices]),
    );
  },
);

test('an unknown command is answered with the closest one (commander)', async () => {
  const r = await runCli(['rendr'], ROOT);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe("error: unknown command 'rendr'\n(Did you mean render?)\n");
});

describe('did you mean, for app names', () => {
  test('edit distance counts insertions, deletions, substitutions and swaps of neighbours', () => {
    expect(editDistance('checkout', 'checkuot')).toBe(1);
    expect(editDistance('checkout', 'chekcuot')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('web', 'web')).toBe(0);
  });
  test('the closest name within a third of its length, else none', () => {
    expect(suggestName('chekout', ['cart', 'checkout', 'search'])).toBe('checkout');
    expect(suggestName('Cart', ['cart', 'checkout'])).toBe('cart');
    expect(suggestName('billing', ['cart', 'checkout'])).toBeUndefined();
  });
  test('rollgen names the closest app of rollgen.yaml', async () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-suggest-'));
    fs.cpSync(path.join(ROOT, 'examples', 'kruise-nginx', 'echoserver'), path.join(repo, 'apps', 'echoserver'), {
      recursive: true,
    });
    fs.writeFileSync(path.join(repo, 'rollgen.yaml'), 'apps:\n  - source: apps/*\n    output: deploy/{name}\n');
    const r = await runCli(['plan', 'echoservr'], repo);
    fs.rmSync(repo, { recursive: true, force: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no app "echoservr" in rollgen.yaml (did you mean echoserver?); known: echoserver');
  });
});

describe('shell completion, generated from the program', () => {
  const script = async (shell: string) => (await runCli(['completion', shell], ROOT)).stdout;
  /** Runs the bash script's completion function as bash would for `words`, returning its replies. */
  async function bashComplete(words: string[]): Promise<string[]> {
    const body = `${await script('bash')}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}\n_rollgen\nprintf '%s\\n' "\${COMPREPLY[@]}"`;
    return execFileSync('bash', ['-c', body], { encoding: 'utf8', cwd: os.tmpdir() }).split('\n').filter(Boolean);
  }

  test('bash completes every command, then the options of the command typed', async () => {
    expect((await bashComplete(['rollgen', ''])).sort()).toEqual(commands.map((c) => c.name()).sort());
    for (const c of commands) {
      const offered = await bashComplete(['rollgen', c.name(), '--']);
      for (const o of c.options.filter((o) => !o.hidden)) expect(offered).toContain(o.long);
      expect(offered).toEqual(expect.arrayContaining(['--help', '--debug']));
    }
  });

  test('bash completes the choices of an option', async () => {
    expect(await bashComplete(['rollgen', 'render', '--removal', 't'])).toEqual(['two-commits']);
    expect(await bashComplete(['rollgen', 'status', '-o', 'y'])).toEqual(['yaml']);
    expect((await bashComplete(['rollgen', 'advance', '--output', ''])).sort()).toEqual(['json', 'text', 'yaml']);
  });

  test('every command that prints state offers --json and -o; status offers --watch and --pr', async () => {
    const printing = [
      'plan',
      'validate',
      'simulate',
      'status',
      'advance',
      'abort',
      'promote',
      'retry',
      'pr',
      'analyze',
    ];
    for (const name of printing)
      expect(await bashComplete(['rollgen', name, '-'])).toEqual(expect.arrayContaining(['--json', '-o', '--output']));
    expect(await bashComplete(['rollgen', 'status', '--'])).toEqual(expect.arrayContaining(['--watch', '--pr']));
  });

  test.each(['zsh', 'fish'])('%s lists every command and every option of each', async (shell) => {
    const text = await script(shell);
    for (const c of commands) {
      expect(text).toContain(shell === 'zsh' ? `'${c.name()}:` : `-a ${c.name()} `);
      for (const o of c.options.filter((o) => !o.hidden))
        expect(text).toContain(shell === 'zsh' ? `'${o.long}[` : `-l ${o.long!.slice(2)} `);
    }
  });

  /** Runs `shell` on the script saved to a file; undefined (with a visible warning) when the shell is missing. */
  async function withShell(shell: string, args: (file: string) => string[]) {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-completion-')), `rollgen.${shell}`);
    fs.writeFileSync(file, await script(shell));
    const r = spawnSync(shell, args(file), { encoding: 'utf8' });
    fs.rmSync(path.dirname(file), { recursive: true });
    if (r.error) console.warn(`${shell} is not installed: its completion script was not run`);
    return r.error ? undefined : r;
  }

  test('zsh accepts its script (or says it is not installed)', async () => {
    const r = await withShell('zsh', (file) => ['-n', file]);
    if (r) expect([r.status, r.stderr]).toEqual([0, '']);
  });

  test('fish completes every command and the choices of an option (or says it is not installed)', async () => {
    const r = await withShell('fish', (file) => [
      '-c',
      `source ${file}; complete -C 'rollgen '; complete -C 'rollgen render --removal '`,
    ]);
    if (!r) return;
    const offered = r.stdout.split('\n').map((line) => line.split('\t')[0]);
    expect(offered).toEqual(expect.arrayContaining([...commands.map((c) => c.name()), 'one-commit', 'two-commits']));
  });

  test('an unknown shell exits 2 and names the ones there are', async () => {
    const r = await runCli(['completion', 'tcsh'], ROOT);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.\n",
    });
  });
});

test('every locked package accepts Node 20 (no EBADENGINE on npm ci)', () => {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { engines?: { node?: string } | string[] }>;
  };
  const refusing = Object.entries(lock.packages)
    .map(([name, p]) => [name, Array.isArray(p.engines) ? undefined : p.engines?.node] as const)
    .filter(([, range]) => range !== undefined && !semver.satisfies('20.19.0', range));
  expect(refusing).toEqual([]);
});
