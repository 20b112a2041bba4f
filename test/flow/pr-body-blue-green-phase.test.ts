import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { bumpImage, commitAll, git } from '../helpers/git-repo';

/** A user's PR template reads `phase`: blue-green steps carry their names there, as plan and messages show them. */
const AT = new Date('2026-03-01T09:00:00Z');
let repo: string;
afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

test('{{phase}} of the switch PR names the step: step 2 of 2 (switch)', async () => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-bg-phase-'));
  git(repo, ['init', '--quiet', '--initial-branch=main'], AT);
  fs.cpSync(path.join(__dirname, '..', '..', 'examples', 'argo-blue-green', 'web'), path.join(repo, 'apps', 'web'), {
    recursive: true,
  });
  fs.mkdirSync(path.join(repo, '.github'));
  fs.writeFileSync(path.join(repo, '.github', 'body.hbs'), 'phase: {{phase}}\n');
  fs.writeFileSync(
    path.join(repo, 'rollgen.yaml'),
    'apps:\n  - source: apps/web\n    output: deploy/web\npr:\n  bodyTemplate: .github/body.hbs\n',
  );
  commitAll(repo, 'init', AT);
  for (let i = 0; i < 2; i++) expect((await runCli(['advance', '--commit'], repo)).code).toBe(0);
  bumpImage(repo, 'web', '2.54', AT);
  expect((await runCli(['advance', '--commit'], repo)).code).toBe(0);
  const r = await runCli(['pr', '--dry-run', '--offline'], repo, '', { env: {} });
  expect(r.stdout).toContain('== web: rollgen/web/step-2 ==');
  expect(r.stdout).toContain('phase: step 2 of 2 (switch)\n');
});
