import { execFileSync } from 'child_process';
import { Target, branchName, encodeApp, parseBranch } from '../../src/flow/branch';

const TARGETS: Target[] = [
  { kind: 'step', step: 1 },
  { kind: 'step', step: 12 },
  { kind: 'adopt' },
  { kind: 'select' },
  { kind: 'promote' },
  { kind: 'cleanup' },
  { kind: 'revert' },
  { kind: 'remove' },
  { kind: 'abort' },
  { kind: 'retry' },
];
const NAMES = [
  'echoserver',
  'Echo_Server',
  'a..b',
  'x.lock',
  'my app',
  'feat/x',
  'we~ird^:?*[\\',
  'trailing.',
  '.hidden',
  'ünïcode-名前',
  '-->',
  '_41',
];

test.each(NAMES)('app %j: every target round-trips and is a valid git branch name', (app) => {
  for (const target of TARGETS) {
    const branch = branchName(app, target);
    expect(parseBranch(branch)).toEqual({ app, target });
    // git itself is the judge of what a branch may be called.
    expect(() => execFileSync('git', ['check-ref-format', '--branch', branch], { stdio: 'pipe' })).not.toThrow();
  }
});

test('names are readable where they can be and fixed by the app and target', () => {
  expect(branchName('echoserver', { kind: 'step', step: 2 })).toBe('rollgen/echoserver/step-2');
  expect(branchName('my app', { kind: 'promote' })).toBe('rollgen/my_20app/promote');
  expect(encodeApp('a_b')).toBe('a_5fb');
});

test.each([
  'main',
  'rollgen/echoserver',
  'rollgen/echoserver/step-0',
  'rollgen/echoserver/step-01',
  'rollgen/echoserver/deploy',
  'rollgen/echo.server/step-1',
  'rollgen/_4/step-1',
  'rollgen/_41/step-1', // `A` written as an escape: not a spelling rollgen produces
  'rollgen/_ff/step-1', // not UTF-8
  'rollgen//step-1',
  'other/echoserver/step-1',
])('%s is not a rollgen branch', (branch) => {
  expect(parseBranch(branch)).toBeUndefined();
});
