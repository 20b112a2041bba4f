import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { BIN, buildOutput, rollgenClean, useAppDir } from './helpers/rollout-dir';
import { validateAgainstSchemas } from './helpers/schema';

/**
 * A whole Kruise rollout on the custom provider through the CLI: the TraefikService follows its
 * RouteTemplate step by step and is restored at the end; a broken template fails the real
 * `bin/rollgen` (run `npm run build` first) with exit 2 at its line.
 */
const SOURCE = path.join(__dirname, 'golden', 'custom', 'traefik-weighted', 'source');
/** Custom kinds have no published schema; only this test's TraefikService is skipped, by name. */
const CUSTOM_KINDS = ['TraefikService'];

const app = useAppDir('rollgen-custom-', SOURCE);
const { out, read, status, setImage } = app;

async function advance(): Promise<string> {
  const stdout = await rollgenClean(app.dir, ['advance', 'src', 'out']);
  const built = buildOutput(app.dir);
  if (built !== undefined) validateBuilt(built);
  return stdout;
}

/** Everything the output applies validates against the Kubernetes schemas, except the custom kinds. */
function validateBuilt(built: string): void {
  const docs = parseAllDocuments(built).map((d) => d.toJS() as { kind: string });
  expect(docs.some((d) => d.kind === 'RouteTemplate')).toBe(false);
  const known = docs.filter((d) => !CUSTOM_KINDS.includes(d.kind));
  expect(validateAgainstSchemas(known.map((d) => stringify(d)).join('---\n')).length).toBe(known.length);
}

/** [stable weight, canary weight] of the TraefikService in the output, by Service name. */
function weights(): Record<string, number> {
  const file = fs.readdirSync(out()).find((f) => f.startsWith('traefikservice-'));
  if (!file) throw new Error(`no TraefikService in ${fs.readdirSync(out()).join(', ')}`);
  const services = parse(read(file)).spec.weighted.services as { name: string; weight: number }[];
  return Object.fromEntries(services.map((s) => [s.name, s.weight]));
}

test('first deploy, every step, promotion and clean-up move the TraefikService weights', async () => {
  // GIVEN a first deploy and its selector commit: the TraefikService is the original.
  await advance();
  await advance();
  expect(weights()).toEqual({ echoserver: 1 });
  expect(fs.readdirSync(out()).some((f) => /routetemplate/i.test(f))).toBe(false);

  // WHEN the pod template changes THEN each step renders the template with that step's weight.
  setImage('2.54');
  const expected = [
    { echoserver: 80, 'echoserver-canary': 20 },
    { echoserver: 50, 'echoserver-canary': 50 },
    { echoserver: 0, 'echoserver-canary': 100 },
  ];
  for (const [i, w] of expected.entries()) {
    await advance();
    expect(status()).toMatchObject({ phase: 'Progressing', step: i + 1 });
    expect(weights()).toEqual(w);
  }

  // Promote keeps the last step's routing; clean-up restores the original object.
  await advance();
  expect(status().phase).toBe('Promoting');
  expect(weights()).toEqual(expected[2]);
  await advance();
  expect(status()).toMatchObject({ phase: 'Healthy', step: 0 });
  expect(weights()).toEqual({ echoserver: 1 });
});

test('a broken template fails advance at its line and leaves the output untouched', async () => {
  await advance();
  const before = fs
    .readdirSync(out())
    .map((f) => read(f))
    .join('\n');
  const file = path.join(app.dir, 'src', 'route-template.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('weight: {{step.weight}}', 'weight: {{step.percent}}'));
  setImage('2.54');
  const r = spawnSync(BIN, ['advance', 'src', 'out'], { cwd: app.dir, encoding: 'utf8' });
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(
    /^src\/route-template\.yaml:22:\d+: RouteTemplate traefik-weighted, template line 12, rendering step 1.*"percent" not defined/m,
  );
  expect(
    fs
      .readdirSync(out())
      .map((f) => read(f))
      .join('\n'),
  ).toBe(before);
});
