import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { BASE_REPO } from '../helpers/started-repo';

/**
 * `rollgen validate` reports what `rollgen pr` would refuse in rollgen.yaml's `pr:`: a template file
 * that is not there (at its field's line:col), a template that does not parse (at its line), and a
 * mis-named field; the PR flow refuses the same at the same place.
 */
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-pr-config-'));
  fs.cpSync(BASE_REPO, dir, { recursive: true });
  fs.mkdirSync(path.join(dir, 'tpl'));
  fs.writeFileSync(path.join(dir, 'tpl', 'bad.hbs'), 'Step {{step}}\n{{#if canary}}no end\n');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const withPr = (pr: string) =>
  fs.writeFileSync(path.join(dir, 'rollgen.yaml'), `apps:\n  - source: apps/echo\n    output: deploy/echo\npr:\n${pr}`);

test('GIVEN pr.titleTemplate naming a missing file and a bodyTemplate that does not parse WHEN validated THEN both refused at their place, and pr refuses the missing one at its field', async () => {
  withPr('  titleTemplate: tpl/missing.hbs\n  bodyTemplate: tpl/bad.hbs\n');
  const r = await runCli(['validate'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /^rollgen\.yaml:5:18: pr\.titleTemplate: tpl\/missing\.hbs is not a file .*create it, fix the path, or remove pr\.titleTemplate/m,
  );
  expect(r.stderr).toMatch(
    /^tpl\/bad\.hbs:\d+:1: PR template: Parse error .*fix it so that `rollgen pr` can render its PRs$/m,
  );
  const pr = await runCli(['pr', '--dry-run', '--offline'], dir);
  expect(pr.code).toBe(2);
  expect(pr.stderr).toMatch(/^rollgen\.yaml:5:18: pr\.titleTemplate: tpl\/missing\.hbs is not a file/m);
});

test('GIVEN a mis-named pr field or a template path that is a directory WHEN validated THEN refused at its line', async () => {
  withPr('  titelTemplate: tpl/title.hbs\n');
  expect((await runCli(['validate'], dir)).stderr).toMatch(/^rollgen\.yaml:5:3: pr: unknown field "titelTemplate"/m);
  withPr('  bodyTemplate: tpl\n');
  const r = await runCli(['validate'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^rollgen\.yaml:5:17: pr\.bodyTemplate: tpl is not a file/m);
});

test('GIVEN working PR templates WHEN validated THEN ok', async () => {
  fs.writeFileSync(path.join(dir, 'tpl', 'title.hbs'), '{{app}}\n');
  withPr('  titleTemplate: tpl/title.hbs\n');
  const r = await runCli(['validate'], dir);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
});
