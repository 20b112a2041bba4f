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

const AGNHOST = { from: ':2.53', to: ':2.54' };
const CASES = [
  { provider: 'ingress-nginx', example: 'kruise-nginx/echoserver', image: AGNHOST, app: '' },
  { provider: 'gateway-api', example: 'gateway-api/echoserver', image: AGNHOST, app: '' },
  { provider: 'traefik', example: 'traefik/web', image: AGNHOST, app: '' },
  // Analyses and a health gate: what follows each step names them.
  {
    provider: 'ingress-nginx-analysis-health',
    example: 'argo-analysis/shop',
    image: { from: ':6.7.0', to: ':6.7.1' },
    app: "    health:\n      statuses: ['kustomization/{name}/*']\n",
  },
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
async function startedRepo(c: (typeof CASES)[number], app: string): Promise<(args: string[]) => Promise<string>> {
  const example = c.example;
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-prbody-'));
  fs.cpSync(path.join(EXAMPLES, example), path.join(repo, 'apps', app), { recursive: true });
  fs.writeFileSync(
    path.join(repo, 'rollgen.yaml'),
    `apps:\n  - source: apps/${app}\n    output: deploy/${app}\n${c.app}`,
  );
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
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(`${c.image.from}\n`, `${c.image.to}\n`));
  }
  commitAll(repo, `${app}: image ${c.image.to.slice(1)}`, AT);
  return cli;
}

describe.each(CASES)('PR bodies, $provider', (c) => {
  const { provider, example } = c;
  const app = path.basename(example);
  const dir = path.join(ROOT, provider);

  test('first step, middle step, abort, promote, clean-up', async () => {
    const cli = await startedRepo(c, app);
    const preview = () => cli(['pr', app, '--dry-run', '--offline']);
    check(path.join(dir, '1-first-step.md'), await preview());
    await cli(['advance', app, '--commit']); // running advance approves the start: step 1 is live
    check(path.join(dir, '2-middle-step.md'), await preview());
    check(path.join(dir, '5-abort.md'), await cli(['abort', app, '--pr', '--dry-run', '--offline']));
    const steps = JSON.parse(await cli(['plan', app, '--json'])).apps[0].rollouts[0].steps.length;
    for (let s = 2; s <= steps; s++) await cli(['promote', app, '--commit']);
    check(path.join(dir, '3-promote.md'), await preview());
    await cli(['promote', app, '--commit']); // promoting
    check(path.join(dir, '4-cleanup.md'), await preview());
  });
});
