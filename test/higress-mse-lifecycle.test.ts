import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { rollgenIn, useAppDir, validateOutputLater } from './helpers/rollout-dir';

/** A full rollout per provider through the CLI: first deploy, every step, promote, clean-up. */
const ROOT = path.join(__dirname, '..');
const CASES = [
  { provider: 'higress', source: 'test/golden/higress/kruise-steps/source', steps: 5 },
  { provider: 'mse', source: 'test/golden/mse/kruise-query/source', steps: 5 },
];

const app = useAppDir('rollgen-higress-');
const { out, read, status } = app;
const canaryIngresses = () =>
  fs
    .readdirSync(out())
    .filter((f) => /^ingress-.*-canary/.test(f))
    .sort();
const annotations = (f: string): Record<string, string> => parse(read(f)).metadata.annotations;

async function advance(): Promise<string> {
  const stdout = await rollgenIn(app.dir, ['advance', 'src', 'out']);
  validateOutputLater(app.dir);
  return stdout;
}

describe.each(CASES)('$provider: rollgen advance', ({ source, steps }) => {
  test('first deploy, every step, promotion and clean-up', async () => {
    fs.cpSync(path.join(ROOT, source), path.join(app.dir, 'src'), { recursive: true });
    await advance();
    await advance();
    expect(status()).toMatchObject({ phase: 'Healthy', step: 0 });
    app.setImage('2.54');

    for (let n = 1; n <= steps; n++) {
      await advance();
      expect(status()).toMatchObject({ phase: 'Progressing', step: n });
      const canaries = canaryIngresses();
      // Step 3 of both cases has a match and a weight: two canary Ingresses.
      expect(canaries).toEqual(
        n === 3
          ? ['ingress-echoserver-canary-weight.yaml', 'ingress-echoserver-canary.yaml']
          : ['ingress-echoserver-canary.yaml'],
      );
      for (const f of canaries) {
        const a = annotations(f);
        expect(a['nginx.ingress.kubernetes.io/canary']).toBe('true');
        // One canary Ingress is a match route or a weight split, never both.
        expect(
          Boolean(a['nginx.ingress.kubernetes.io/canary-weight']) &&
            Object.keys(a).some((k) => k.includes('/canary-by-')),
        ).toBe(false);
      }
    }
    expect(canaryIngresses()).toEqual(['ingress-echoserver-canary.yaml']);
    expect(annotations('ingress-echoserver-canary.yaml')['nginx.ingress.kubernetes.io/canary-weight']).toBe('100');

    await advance();
    expect(status().phase).toBe('Promoting');
    expect(parse(read('deployment-echoserver.yaml')).spec.template.spec.containers[0].image).toMatch(/2\.54$/);
    expect(canaryIngresses()).toEqual(['ingress-echoserver-canary.yaml']);
    await advance();
    expect(status()).toMatchObject({ phase: 'Healthy', step: 0 });
    expect(canaryIngresses()).toEqual([]);
    expect(parse(read('kustomization.yaml')).resources).toEqual([
      'deployment-echoserver.yaml',
      'ingress-echoserver.yaml',
      'service-echoserver.yaml',
    ]);
    expect(await advance()).toMatch(/nothing to advance/);
  });
});
