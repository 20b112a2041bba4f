import * as fs from 'fs';
import * as path from 'path';
import { parse, parseAllDocuments } from 'yaml';
import { buildOutput, rollgenIn, useAppDir } from './helpers/rollout-dir';
import { validateAgainstSchemas } from './helpers/schema';

/** A whole gateway-api rollout through the CLI (in-process, as bin/rollgen runs it), as a GitOps repo would run it. */
const SOURCE = path.join(__dirname, 'golden', 'gateway-api', 'kruise-matches-crossed', 'source');

const app = useAppDir('rollgen-gw-', SOURCE);
const { out, read, status, setImage } = app;
const route = () => parse(read('httproute-shop.yaml'));
const refsOf = (rule: { backendRefs?: { name: string; weight?: number }[] }) =>
  (rule.backendRefs ?? []).map((r) => `${r.name}${r.weight === undefined ? '' : `=${r.weight}`}`);

/** Runs the CLI, then builds the output with kustomize and validates every object against its published schema. */
async function advance(...args: string[]): Promise<string> {
  const stdout = await rollgenIn(app.dir, [...(args.length ? args : ['advance']), 'src', 'out']);
  const built = buildOutput(app.dir);
  if (built !== undefined) {
    expect(validateAgainstSchemas(built)).toContain('HTTPRoute/shop');
    expect(parseAllDocuments(built).filter((d) => d.toJS()?.kind === 'HTTPRoute')).toHaveLength(1);
  }
  return stdout;
}

test('first deploy, every step, promotion and clean-up restore the HTTPRoute exactly', async () => {
  await advance();
  await advance();
  const { metadata: before, spec: beforeSpec } = route();
  expect(beforeSpec).toEqual(parse(fs.readFileSync(path.join(SOURCE, 'httproute.yaml'), 'utf8')).spec);

  setImage('2.54');
  await advance();
  expect(status()).toMatchObject({ phase: 'Progressing', step: 1 });
  expect(route().spec.rules).toHaveLength(6); // two canary rules (one per stable rule) ahead of the four of the source
  expect(route().spec.rules.slice(0, 2).map(refsOf)).toEqual([['echoserver-canary'], ['echoserver-canary']]);

  await advance();
  expect(route().spec.rules).toHaveLength(5);
  expect(route().spec.rules[0].matches).toEqual([
    {
      path: { type: 'PathPrefix', value: '/storage/v2' },
      headers: [{ type: 'Exact', name: 'x-env', value: 'canary' }],
    },
  ]);

  await advance();
  expect(route().spec.rules.map(refsOf)).toEqual([
    ['echoserver=50', 'echoserver-canary=50'],
    ['list-svc'],
    [],
    ['echoserver=50', 'echoserver-canary=50'],
  ]);
  await advance();
  expect(route().spec.rules.map(refsOf)[0]).toEqual(['echoserver=0', 'echoserver-canary=100']);

  await advance(); // promote: traffic as in the last step
  expect(status().phase).toBe('Promoting');
  expect(route().spec.rules.map(refsOf)[0]).toEqual(['echoserver=0', 'echoserver-canary=100']);

  await advance(); // clean-up
  expect(status()).toMatchObject({ phase: 'Healthy', step: 0 });
  expect(fs.readdirSync(out()).filter((f) => f.includes('canary'))).toEqual([]);
  expect(route().spec).toEqual(beforeSpec);
  expect(route().metadata).toEqual(before);
  expect(await advance()).toMatch(/nothing to advance/);
});

test('abort mid-rollout removes the canary rules and refs at once', async () => {
  await advance();
  await advance();
  setImage('2.54');
  await advance();
  await advance('abort');
  expect(status().phase).toBe('Aborted');
  expect(route().spec).toEqual(parse(fs.readFileSync(path.join(SOURCE, 'httproute.yaml'), 'utf8')).spec);
});
