import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { addApp } from '../helpers/git-repo';

let repo: string;
beforeEach(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-config-'));
  for (const name of ['api', 'web', 'worker']) addApp(repo, name);
});
afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

const withConfig = async (config: string, ...args: string[]) => {
  fs.writeFileSync(path.join(repo, 'rollgen.yaml'), config);
  return runCli(args.length > 0 ? args : ['validate'], repo);
};

test('a pattern source with a fixed output is refused at the output line; nothing is written', async () => {
  const r = await withConfig('apps:\n  - source: apps/*\n    output: deploy/x\n', 'advance');
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(
    'rollgen.yaml:3:13: source "apps/*" is a pattern, so every app it matches would write to "deploy/x"; put {name} in the output (e.g. deploy/{name})\n',
  );
  expect(fs.existsSync(path.join(repo, 'deploy'))).toBe(false);
});

test('two apps sharing an output, a pattern output and name: on a pattern are located errors, all at once', async () => {
  const r = await withConfig(
    [
      'apps:',
      '  - source: apps/api',
      '    output: deploy/shared',
      '  - source: apps/web',
      '    output: deploy/shared',
      '  - source: apps/w*',
      '    name: workers',
      '    output: deploy/*/{name}',
      '',
    ].join('\n'),
  );
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n')).toEqual([
    'rollgen.yaml:3:13: app api writes to deploy/shared, as web does; give each app its own output',
    'rollgen.yaml:5:13: app web writes to deploy/shared, as api does; give each app its own output',
    'rollgen.yaml:7:11: name: "workers" cannot name every app of the pattern "apps/w*"; each is named after its directory',
    'rollgen.yaml:8:13: output "deploy/*/{name}" is a pattern; write a directory, with {name} for each app of a pattern source',
  ]);
});

test('an output that is another app’s source is refused', async () => {
  const r = await withConfig(
    'apps:\n  - source: apps/api\n    output: apps/web\n  - source: apps/web\n    output: deploy/web\n',
  );
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /^rollgen\.yaml:2:3: app api: the output is the source of app web; write the output to its own directory\n$/,
  );
});

test('brace, class and ** patterns select apps as a shell would', async () => {
  fs.mkdirSync(path.join(repo, 'apps', '.hidden'));
  const braces = await withConfig('apps:\n  - source: apps/{api,worker}\n    output: deploy/{name}\n', 'status');
  expect(braces.stderr).toBe('');
  expect(braces.stdout.match(/^Name: .*$/gm)).toEqual([
    'Name:          api/api-rollout',
    'Name:          worker/worker-rollout',
  ]);
  expect(braces.stdout).not.toMatch(/web/);
  const classes = await withConfig('apps:\n  - source: apps/[aw]*\n    output: deploy/{name}\n', 'status');
  expect(classes.stdout.match(/NotDeployed/g)).toHaveLength(3);
  const none = await withConfig('apps:\n  - source: apps/{db,cache}\n    output: deploy/{name}\n');
  expect(none.code).toBe(2);
  expect(none.stderr).toMatch(/^rollgen\.yaml:2:5: source "apps\/\{db,cache\}" matches no directory/);
});

test('a track label with one value for stable and canary, and a placeholder other than {name}, are located errors; nothing is written', async () => {
  const r = await withConfig(
    [
      'health: {statuses: ["cd/{nmae}"]}',
      'apps:',
      '  - source: apps/api',
      '    output: deploy/{nmae}',
      '    trackLabel: {key: version, stable: a, canary: a}',
      '',
    ].join('\n'),
    'advance',
  );
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(
    [
      'rollgen.yaml:1:21: unknown placeholder {nmae} in "cd/{nmae}"; only {name} is filled in (the app\'s name)',
      'rollgen.yaml:4:13: unknown placeholder {nmae} in "deploy/{nmae}"; only {name} is filled in (the app\'s name)',
      'rollgen.yaml:5:51: trackLabel: stable and canary are both "a", so the stable Service would select the canary pods too; give them different values',
      '',
    ].join('\n'),
  );
  expect(fs.existsSync(path.join(repo, 'deploy'))).toBe(false);
});

test('a track label key or value Kubernetes would refuse is refused at it', async () => {
  const r = await withConfig(
    'apps:\n  - source: apps/api\n    output: deploy/api\n    trackLabel: {key: "bad key!", stable: s, canary: "x y"}\n',
  );
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^rollgen\.yaml:4:23: apps\[0\]\.trackLabel\.key: must match the pattern /m);
  expect(r.stderr).toMatch(/^rollgen\.yaml:4:54: apps\[0\]\.trackLabel\.canary: must match the pattern /m);
});

test("one source read by two entries, an output inside another app's, and a source that is no directory are located errors, all at once", async () => {
  fs.writeFileSync(path.join(repo, 'apps', 'api', 'notes.txt'), 'not an app\n');
  const r = await withConfig(
    [
      'apps:',
      '  - source: apps/api',
      '    output: deploy/api',
      '  - source: apps/web',
      '    output: deploy/api/web',
      '  - source: apps/api/',
      '    name: api2',
      '    output: deploy/api2',
      '  - source: apps/missing',
      '    output: deploy/missing',
      '  - source: apps/api/notes.txt',
      '    output: deploy/notes',
      '',
    ].join('\n'),
    'advance',
  );
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(
    [
      "rollgen.yaml:5:13: app web writes to deploy/api/web, inside app api's output deploy/api: a sync of that directory would apply both apps; put the outputs side by side",
      'rollgen.yaml:6:13: app api2 reads apps/api, as app api does: two outputs would own the same objects; list each source once',
      'rollgen.yaml:9:5: source "apps/missing" is not a directory; name the app\'s directory',
      'rollgen.yaml:11:5: source "apps/api/notes.txt" is not a directory; name the app\'s directory',
      '',
    ].join('\n'),
  );
  expect(fs.existsSync(path.join(repo, 'deploy'))).toBe(false);
});

test('a trackLabel.key the Deployment selects its pods by is refused at that selector key', async () => {
  const r = await withConfig(
    'apps:\n  - source: apps/api\n    output: deploy/api\n    trackLabel: {key: app, stable: base, canary: canary}\n',
  );
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /^apps\/api\/deployment\.yaml:\d+:\d+: Deployment "api" selects its pods by app, the track label rollgen sets to base or canary on them: its selector would no longer match its pods\. Choose another trackLabel\.key in rollgen\.yaml$/m,
  );
});

test("a trackLabel.key the Deployment selects by, with the selector's value as the stable one, keeps matching its pods: accepted", async () => {
  const r = await withConfig(
    'apps:\n  - source: apps/api\n    output: deploy/api\n    trackLabel: {key: app, stable: api, canary: api-canary}\n',
  );
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
});

test('an analysisTemplates directory that does not exist is refused at its line', async () => {
  const r = await withConfig('analysisTemplates: nothere\napps:\n  - source: apps/api\n    output: deploy/api\n');
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(
    'rollgen.yaml:1:20: analysisTemplates "nothere" is not a directory; name the directory that holds the shared AnalysisTemplates\n',
  );
});
