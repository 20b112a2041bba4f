import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { rollgenClean, useAppDir, validateOutput } from '../helpers/rollout-dir';
import { validateAgainstSchemas } from '../helpers/schema';
import { providerInputs } from '../../generators/registry';
import { providerFromKruiseRouting } from '../../src/spec/providers';
import { parseYamlStream } from '../../src/yaml/parse';

const ROOT = path.join(__dirname, '..', '..');
const GOLDEN = path.join(ROOT, 'test', 'golden', 'istio');

test('every rendered golden step validates against the published Istio and Kubernetes schemas', async () => {
  const files = fs.readdirSync(GOLDEN).flatMap((c) => {
    const dir = path.join(GOLDEN, c, 'expected');
    return fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .filter((f) => f.endsWith('.yaml'))
          .map((f) => path.join(dir, f))
      : [];
  });
  expect(files.length).toBeGreaterThan(20);
  const kinds = new Set(
    files.flatMap((f) => validateAgainstSchemas(fs.readFileSync(f, 'utf8')).map((k) => k.split('/')[0])),
  );
  expect([...kinds].sort()).toEqual(['Deployment', 'DestinationRule', 'Service', 'VirtualService']);
});

test('Kruise customNetworkRefs are Istio by group and kind, whatever the version; anything else is custom', async () => {
  const providerOf = (refs: string) => {
    const [doc] = parseYamlStream('r.yaml', `routing:\n  customNetworkRefs: ${refs}\n`).documents;
    return providerFromKruiseRouting(
      doc,
      (doc.value as { routing: Record<string, unknown> }).routing,
      ['routing'],
      [],
      providerInputs,
    )[0].provider;
  };
  expect(
    providerOf(
      '[{apiVersion: networking.istio.io/v1, kind: VirtualService, name: a}, {apiVersion: networking.istio.io/v1alpha3, kind: DestinationRule, name: b}]',
    ),
  ).toBe('istio');
  expect(providerOf('[{apiVersion: networking.istio.io/v1alpha3, kind: EnvoyFilter, name: a}]')).toBe('custom');
  expect(providerOf('[{apiVersion: gateway.networking.k8s.io/v1, kind: VirtualService, name: a}]')).toBe('custom');
});

describe('a full Argo subset-mode rollout through rollgen advance', () => {
  const app = useAppDir('rollgen-istio-', path.join(GOLDEN, 'argo-subset-mode', 'source'), 'all');
  const { out, status } = app;
  const docs = (f: string) => parseAllDocuments(fs.readFileSync(out(f), 'utf8')).map((d) => d.toJS());
  const vs = () => docs('virtualservice-ratings.yaml')[0];
  const dr = () => docs('destinationrule-ratings.yaml')[0];
  const weights = () =>
    vs().spec.http[0].route.map(
      (d: { destination: { subset: string }; weight: number }) => `${d.destination.subset}=${d.weight}`,
    );
  const subset = (name: string) => dr().spec.subsets.find((s: { name: string }) => s.name === name).labels;

  async function advance(): Promise<string> {
    const stdout = await rollgenClean(app.dir, ['advance', 'src', 'out']);
    const checked = validateOutput(app.dir);
    if (checked) expect(checked).toEqual(expect.arrayContaining(['VirtualService/ratings', 'DestinationRule/ratings']));
    return stdout;
  }

  test('adoption, steps 10% and 40%, promotion and clean-up', async () => {
    await advance();
    await advance();
    expect(weights()).toEqual(['stable=100', 'canary=0']);
    app.setImage('2.54', 'deployment-ratings.yaml');
    await advance();
    expect(weights()).toEqual(['stable=90', 'canary=10']);
    expect(subset('canary')).toEqual({ app: 'ratings', 'rollgen.dev/track': 'canary' });
    expect(subset('stable')).toEqual({ app: 'ratings', 'rollgen.dev/track': 'stable' });
    expect(subset('legacy')).toEqual({ app: 'ratings', version: 'legacy' });
    expect(docs('deployment-ratings-canary.yaml')[0].spec.template.metadata.labels['rollgen.dev/track']).toBe('canary');
    await advance();
    expect(weights()).toEqual(['stable=60', 'canary=40']);
    await advance();
    expect(status().phase).toBe('Promoting');
    expect(weights()).toEqual(['stable=60', 'canary=40']);
    await advance();
    expect(weights()).toEqual(['stable=100', 'canary=0']);
    expect(subset('canary')).toEqual({ app: 'ratings' });
    // Argo keeps the canary 30 s after the routes leave it (scaleDownDelaySeconds' default): a later commit removes it.
    expect(fs.existsSync(out('deployment-ratings-canary.yaml'))).toBe(true);
    expect(await advance()).toMatch(/remove canary workloads -> stable only/);
    expect(fs.existsSync(out('deployment-ratings-canary.yaml'))).toBe(false);
    expect(await advance()).toMatch(/nothing to advance/);
  });
});
