import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from './helpers/cli';
import { commitAll, git } from './helpers/git-repo';

/**
 * Golden PR bodies: test/pr-bodies/<provider>/<kind>.md is what `rollgen pr --dry-run --offline`
 * (or `abort --pr --dry-run --offline`) prints for an example app at each kind of step. The repo
 * is driven in local git mode with fixed commit dates, so every hash is stable.
 * UPDATE_GOLDEN=1 rewrites the files from the actual output.
 */
const ROOT = path.join(__dirname, 'pr-bodies');
const EXAMPLES = path.join(__dirname, '..', 'examples');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const AT = new Date('2026-03-01T09:00:00Z');

const CASES = [
  { provider: 'ingress-nginx', example: 'kruise-nginx/echoserver' },
  { provider: 'gateway-api', example: 'gateway-api/echoserver' },
  { provider: 'traefik', example: 'traefik/web' },
];

const env = { GITHUB_REPOSITORY: 'acme/deploy', GITHUB_SERVER_URL: 'https://github.com' };

function check(file: string, actual: string): void {
  if (UPDATE) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, actual);
    return;
  }
  if (!fs.existsSync(file)) throw new Error(`${file} is missing; run UPDATE_GOLDEN=1 npx jest test/pr-bodies.test.ts`);
  expect(actual).toBe(fs.readFileSync(file, 'utf8'));
}

/** A checkout with one app from examples/, adopted and then given a new image, all at fixed dates. */
async function startedRepo(example: string, app: string): Promise<(args: string[]) => Promise<string>> {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-prbody-'));
  fs.cpSync(path.join(EXAMPLES, example), path.join(repo, 'apps', app), { recursive: true });
  fs.writeFileSync(path.join(repo, 'rollgen.yaml'), `apps:\n  - source: apps/${app}\n    output: deploy/${app}\n`);
  git(repo, ['init', '--quiet', '--initial-branch=main']);
  commitAll(repo, 'initial', AT);
  const cli = async (args: string[]) => {
    const r = await runCli(args, repo, '', { env, git: (a, cwd) => git(cwd, a, AT) });
    if (r.code !== 0) throw new Error(`rollgen ${args.join(' ')}: ${r.code}\n${r.stderr}`);
    return r.stdout;
  };
  await cli(['advance', app, '--commit']); // adopt
  await cli(['advance', app, '--commit']); // Services select by track label
  const source = path.join(repo, 'apps', app);
  for (const f of fs.readdirSync(source)) {
    const file = path.join(source, f);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/(image: \S+?):2\.53/, '$1:2.54'));
  }
  commitAll(repo, `${app}: agnhost 2.54`, AT);
  return cli;
}

describe.each(CASES)('PR bodies, $provider', ({ provider, example }) => {
  const app = path.basename(example);
  const dir = path.join(ROOT, provider);

  test('first step, middle step, abort, promote, clean-up', async () => {
    const cli = await startedRepo(example, app);
    const preview = () => cli(['pr', app, '--dry-run', '--offline']);
    check(path.join(dir, '1-first-step.md'), await preview());
    await cli(['advance', app, '--commit']); // running advance approves the start: step 1 is live
    check(path.join(dir, '2-middle-step.md'), await preview());
    check(path.join(dir, '5-abort.md'), await cli(['abort', app, '--pr', '--dry-run', '--offline']));
    const steps = JSON.parse(await cli(['plan', app, '--json'])).rollouts[0].steps.length;
    for (let s = 2; s <= steps; s++) await cli(['promote', app, '--commit']);
    check(path.join(dir, '3-promote.md'), await preview());
    await cli(['promote', app, '--commit']); // promoting
    check(path.join(dir, '4-cleanup.md'), await preview());
  });
});
