import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { editDistance, suggestName } from '../src/suggest';

/** Messages, help and usage errors as a user meets them: bin/rollgen in a scratch repository (issue 29 items 6, 9). */
const ROOT = path.join(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'rollgen');
let repo = '';
beforeAll(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-messages-'));
  fs.cpSync(path.join(ROOT, 'examples', 'kruise-nginx', 'echoserver'), path.join(repo, 'apps', 'shop'), {
    recursive: true,
  });
  fs.writeFileSync(path.join(repo, 'rollgen.yaml'), 'apps:\n  - source: apps/*\n    output: deploy/{name}\n');
});
afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

const rollgen = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: repo, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('one "did you mean" rule, with swapped letters', () => {
  test('a swap of two neighbours is one edit (optimal string alignment)', () => {
    expect(editDistance('shpo', 'shop')).toBe(1);
    expect(editDistance('paln', 'plan')).toBe(1);
    expect(editDistance('checkuot', 'checkout')).toBe(1);
    expect(editDistance('ca', 'abc')).toBe(3);
  });
  test('the limit grows with the length of the name', () => {
    expect(suggestName('shpo', ['shop', 'cart'])).toBe('shop');
    expect(suggestName('chcekuot', ['checkout'])).toBe('checkout');
    expect(suggestName('hspo', ['shop'])).toBeUndefined();
  });
  test('an app name with swapped letters gets a suggestion', () => {
    const r = rollgen('status', 'shpo');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no app "shpo" in rollgen.yaml (did you mean shop?)');
  });
  test.each([
    [['paln'], "error: unknown command 'paln'\n(Did you mean plan?)\n"],
    [['stauts'], "error: unknown command 'stauts'\n(Did you mean status?)\n"],
    [['plan', 'shop', '--josn'], "error: unknown option '--josn'\n(Did you mean --json?)\n"],
    [['status', '--wacth'], "error: unknown option '--wacth'\n(Did you mean --watch?)\n"],
    [['plan', '--bogus'], "error: unknown option '--bogus'\n"],
  ])('commands and options by the same rule: %j', (args, stderr) => {
    expect(rollgen(...args)).toEqual({ code: 2, stdout: '', stderr });
  });
});

describe('usage errors under --json or -o yaml are a kind: Error document', () => {
  test.each([
    [['plan', 'shop', '--json', '--bogus'], "unknown option '--bogus'"],
    [['simulate', 'shop', '--json', '--step', 'x'], "option '--step <n>' argument 'x' is invalid. a step number"],
    [['plan', 'shop', '-o', 'json', '--josn'], "unknown option '--josn'\n(Did you mean --json?)"],
  ])('%j', (args, message) => {
    const r = rollgen(...args);
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout) as { kind: string; error: { type: string; exitCode: number; message: string } };
    expect(doc).toMatchObject({ kind: 'Error', error: { type: 'InputError', exitCode: 2 } });
    expect(doc.error.message.startsWith(message)).toBe(true);
    expect(r.stderr).toContain(`error: ${message}`);
  });
  test('-o yaml gives the same document as YAML', () => {
    const r = rollgen('plan', '-o', 'yaml', '--bogus');
    expect(r.stdout).toContain(
      "kind: Error\nerror:\n  type: InputError\n  exitCode: 2\n  message: unknown option '--bogus'",
    );
  });
  test('no document without --json: stdout stays empty', () => {
    expect(rollgen('plan', '--bogus').stdout).toBe('');
  });
});

test('no message of a kind: Error document begins "error:", whichever error it holds', () => {
  const messages = [
    rollgen('plan', 'shpo', '--json'), // input error
    rollgen('advance', 'shop', '--commit', '--json'), // state error: not in a git work tree
    rollgen('plan', '--json', '--nope'),
  ].map((r) => (JSON.parse(r.stdout) as { error?: { message: string } }).error?.message ?? '');
  expect(messages[1]).toBe('--commit: deploy/shop is not inside a git work tree');
  for (const message of messages) {
    expect(message).not.toBe('');
    expect(message).not.toMatch(/^error:/);
  }
});

describe('help', () => {
  test('usage lines name both forms: app names, or SOURCE [OUT]', () => {
    expect(rollgen('plan', '--help').stdout).toContain(
      'Usage: rollgen plan [options] [app...]\n       rollgen plan [options] SOURCE [OUT]\n',
    );
    expect(rollgen('advance', '--help').stdout).toContain('       rollgen advance [options] SOURCE OUT\n');
  });
  test('advance is described for app names too, not only OUT', () => {
    expect(rollgen('advance', '--help').stdout).toContain("write each app's next step into its output");
    expect(rollgen('--help').stdout).not.toContain('into OUT');
  });
  test('-f is shown as the one form it takes, -f -', () => {
    const help = rollgen('render', '--help').stdout;
    expect(help).toContain('-f, --file -  ');
    expect(help).not.toContain('<->');
  });
  test('the top-level help ends with examples, as every command help does', () => {
    const help = rollgen('--help').stdout;
    expect(help).toMatch(/\nExamples:\n {2}\$ rollgen plan /);
  });
});

test('an unknown field of a Rollout gets the same "did you mean", from the fields rollgen knows there', () => {
  const app = path.join(repo, 'apps', 'typo');
  fs.cpSync(path.join(ROOT, 'examples', 'argo-nginx', 'echoserver'), app, { recursive: true });
  const rollout = path.join(app, 'rollout.yaml');
  const text = fs.readFileSync(rollout, 'utf8');
  fs.writeFileSync(
    rollout,
    text.replace('stableService:', 'stableServcie:').replace('setWeight: 5\n', 'setWieght: 5\n'),
  );
  const r = rollgen('plan', 'typo');
  fs.rmSync(app, { recursive: true });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('spec.strategy.canary: unknown field "stableServcie" (did you mean stableService?)');
  expect(r.stderr).toContain('spec.strategy.canary.steps[0]: unknown field "setWieght" (did you mean setWeight?)');
});
