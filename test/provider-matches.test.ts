import { runCli } from './helpers/cli';
import { exampleApps } from './helpers/example-app';
import * as fs from 'fs';
import * as path from 'path';

/**
 * Every way a request reaches the canary shows in plan and status, those the provider's own
 * options add included (ingress-nginx: canary-by-header, -value, -pattern and canary-by-cookie
 * among Argo's additionalIngressAnnotations), and each one shown is one simulate confirms (issue 29 item 5).
 */
const apps = exampleApps('rollgen-provider-matches-');

/** The argo-nginx example with `annotations` as its additionalIngressAnnotations. */
function withAnnotations(annotations: string): void {
  apps.example('argo-nginx/echoserver', 'rollout.yaml', (t) =>
    t.replace(
      /additionalIngressAnnotations:\n\s+canary-by-header: X-Canary/,
      `additionalIngressAnnotations: ${annotations}`,
    ),
  );
}

type Step = { providerMatches?: unknown[] };
const planSteps = async (): Promise<Step[]> =>
  JSON.parse((await runCli(['plan', 'src', '--json'], apps.dir())).stdout).apps[0].rollouts[0].steps;

test.each([
  ['{canary-by-header: X-Canary}', 'X-Canary=always', ['--header', 'X-Canary=always']],
  ['{canary-by-header: X-Canary, canary-by-header-value: beta}', 'X-Canary=beta', ['--header', 'X-Canary=beta']],
  ['{canary-by-header: X-Canary, canary-by-header-pattern: "^be"}', 'X-Canary~=^be', ['--header', 'X-Canary=beta']],
  ['{canary-by-cookie: tester}', 'cookie tester', ['--cookie', 'tester=always']],
])(
  'plan shows %s as %s at every step with a canary route, and simulate agrees',
  async (annotations, shown, request) => {
    withAnnotations(annotations);
    const plan = await runCli(['plan', 'src'], apps.dir());
    expect(plan.code).toBe(0);
    const rows = plan.stdout.split('\n').filter((l) => /^(\d|promote)/.test(l));
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row).toContain(` ${shown} `);
    expect(plan.stdout).toMatch(/^clean-up .* - {2,}- {2,}-$/m);
    const steps = await planSteps();
    expect(steps.every((s) => s.providerMatches?.length === 1)).toBe(true);
    const sim = JSON.parse((await runCli(['simulate', 'src', '--step', '1', ...request, '--json'], apps.dir())).stdout);
    expect(sim.pods).toEqual([{ share: 1, service: 'echoserver-preview', deployment: 'echoserver-canary' }]);
  },
);

test('without such annotations the plan shows no match and carries no providerMatches', async () => {
  withAnnotations('{}');
  const plan = await runCli(['plan', 'src'], apps.dir());
  expect(plan.stdout).toMatch(/^1 +1 +4 +5\/1000 +- +- +manual$/m);
  expect((await planSteps()).some((s) => 'providerMatches' in s)).toBe(false);
});

test('status shows the header route of the live step, in text and JSON', async () => {
  withAnnotations('{canary-by-header: X-Canary}');
  const dir = apps.dir();
  for (let i = 0; i < 2; i++) expect((await runCli(['advance', 'src', 'out'], dir)).code).toBe(0);
  const deployment = path.join(dir, 'src', 'deployment.yaml');
  fs.writeFileSync(deployment, fs.readFileSync(deployment, 'utf8').replace(/agnhost:[\w.]+/, 'agnhost:9.9'));
  expect((await runCli(['advance', 'src', 'out'], dir)).code).toBe(0);
  const text = await runCli(['status', 'src', 'out'], dir);
  expect(text.stdout).toMatch(/Traffic: +5\/1000 to canary; requests matching X-Canary=always\n/);
  const json = JSON.parse((await runCli(['status', 'src', 'out', '--json'], dir)).stdout);
  expect(JSON.stringify(json)).toContain('"matches":"X-Canary=always"');
});
