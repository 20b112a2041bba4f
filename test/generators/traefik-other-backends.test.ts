import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';

/**
 * A TraefikService that also weighs a backend of its own (legacy: 1 of 4 as written, 25%): every
 * state keeps legacy's 25%, and each step's weight splits only web's 75% with the canary. Argo's
 * 100 - W / W rewrite (legacy's 1 against 100) would have left legacy about 1%. Proved with
 * `rollgen simulate`, as a user would check it.
 */
const CASE = path.join(__dirname, '..', 'golden', 'traefik', 'argo-other-backends');

async function shares(step: number): Promise<Record<string, number>> {
  const r = await runCli(['simulate', 'source', '--step', String(step), '--host', 'web.example.com', '--json'], CASE);
  expect(r.code).toBe(0);
  const pods: { service: string; share: number }[] = JSON.parse(r.stdout).pods;
  return Object.fromEntries(pods.map((p) => [p.service, Number(p.share.toFixed(6))]));
}

test.each([
  [0, { web: 0.75, legacy: 0.25 }],
  [1, { web: 0.6, 'web-canary': 0.15, legacy: 0.25 }],
  [2, { web: 0.375, 'web-canary': 0.375, legacy: 0.25 }],
  [3, { 'web-canary': 0.75, legacy: 0.25 }],
])(
  'GIVEN a weighted TraefikService with another backend WHEN simulated at step %i THEN that backend keeps its written share',
  async (step, expected) => {
    expect(await shares(step)).toEqual(expected);
  },
);

test('GIVEN that TraefikService WHEN planned THEN a warning at the other backend says which share each step weight splits', async () => {
  const r = await runCli(['plan', 'source'], CASE);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    'source/traefikservice.yaml:15:9: warning: app source, rollout web: TraefikService "web-weighted" also sends traffic to other backends (legacy 25% as written)',
  );
});

test('GIVEN a weight that is not a whole number WHEN validated THEN refused at that weight (Traefik weights are integers)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-traefik-weight-'));
  try {
    fs.cpSync(path.join(CASE, 'source'), dir, { recursive: true });
    const file = path.join(dir, 'traefikservice.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('weight: 1\n', 'weight: 1.5\n'));
    const r = await runCli(['validate', '.'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^traefikservice\.yaml:17:17: app \S+, rollout web: TraefikService "web-weighted": weight 1\.5 is not a whole number/m,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
