import * as fs from 'fs';
import * as path from 'path';
import { gatesOf } from '../../src/analysis/gates';
import { AnalysisOptions } from '../../src/analysis/load';
import { ProviderSpec } from '../../src/analysis/types';
import { formatDiagnostic } from '../../src/diagnostics';
import { defaultGatePolicy } from '../../src/plan/gates';
import { loadApp } from '../../src/app/load-app';
import { ParsedDocument, parseYamlStream } from '../../src/yaml/parse';

const ARGO = path.join(__dirname, 'fixtures/argo');
const KRUISE = path.join(__dirname, '../../examples/kruise-nginx/echoserver');

function docsOf(dir: string, replace: Record<string, string> = {}): ParsedDocument[] {
  return fs
    .readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const text = replace[f] ?? fs.readFileSync(path.join(dir, f), 'utf8');
      return parseYamlStream(f, text).documents;
    });
}

function load(dir: string, replace: Record<string, string> = {}, options: AnalysisOptions = {}) {
  const app = loadApp('app', docsOf(dir, replace), defaultGatePolicy, options);
  return { app, messages: app.diagnostics.map(formatDiagnostic) };
}

const fixture = (f: string) => fs.readFileSync(path.join(ARGO, f), 'utf8');
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('AnalysisTemplates resolved at plan time', () => {
  test('the fixture: args substituted (fieldRef, podTemplateHashValue Latest -> canary track), gates per step', () => {
    const { app, messages } = load(ARGO);
    expect(messages).toEqual([]);
    const analysis = app.rollouts[0].analysis;
    const [step1] = gatesOf(analysis, 1);
    const p = step1.spec.metrics[0].provider as Extract<ProviderSpec, { kind: 'prometheus' }>;
    expect(p.query).toContain('service="echoserver"');
    expect(p.address).toBe('http://127.0.0.1:9090');
    expect(gatesOf(analysis, 1).map((g) => g.id)).toEqual(['step-1']);
    const bg = gatesOf(analysis, 2)[0].spec.metrics[0].provider as Extract<ProviderSpec, { kind: 'prometheus' }>;
    expect(bg.query).toContain('track="canary"');
    expect(gatesOf(analysis, 3).map((g) => g.kind)).toEqual(['background']);
  });

  test('a custom track label gives podTemplateHashValue its values', () => {
    const { app } = load(ARGO, {}, { track: { key: 'version', stable: 'base', canary: 'next' } });
    const p = gatesOf(app.rollouts[0].analysis, 2)[0].spec.metrics[0].provider as { query: string };
    expect(p.query).toContain('track="next"');
  });

  test('a provider rollgen does not measure is refused at its line, naming those it does', () => {
    const text = fixture('analysis.yaml').replace(
      /prometheus:\n\s+address: "\{\{args.prometheus\}\}"\n\s+query: \|\n[^\n]+\n[^\n]+\n/,
      'plugin:\n            argoproj-labs/sample: {query: x}\n',
    );
    const { messages } = load(ARGO, { 'analysis.yaml': text });
    expect(messages).toContain(
      `analysis.yaml:${lineOf(text, 'plugin:')}:9: metric provider plugin is not supported (rollgen runs no metric plugin binaries): rollgen measures with prometheus, web, datadog, newRelic, cloudWatch, influxdb, graphite, wavefront, skywalking, kayenta; query the same data through one of them`,
    );
  });

  test('an invalid condition is refused with its location and the parser reason', () => {
    const text = fixture('analysis.yaml').replace('result[0] >= 0.95', 'result[0] >=');
    const { messages } = load(ARGO, { 'analysis.yaml': text });
    expect(messages).toEqual([
      expect.stringMatching(
        new RegExp(
          `^analysis.yaml:${lineOf(text, 'successCondition')}:25: successCondition "len\\(result\\) == 0 \\|\\| result\\[0\\] >=" is not a valid expression: `,
        ),
      ),
    ]);
  });

  test('an unknown function or name in a condition is refused', () => {
    const text = fixture('analysis.yaml').replace('len(result) == 0', 'size(result) == 0');
    expect(load(ARGO, { 'analysis.yaml': text }).messages[0]).toMatch(/unknown function "size"/);
  });

  test('a missing template is refused at its reference', () => {
    const text = fixture('rollout.yaml').replace('templateName: error-rate', 'templateName: errors');
    const { messages } = load(ARGO, { 'rollout.yaml': text });
    expect(messages).toEqual([
      `rollout.yaml:${lineOf(text, 'templateName: errors')}:13: AnalysisTemplate "errors" not found in the app source or the analysisTemplates directory of rollgen.yaml; known: AnalysisTemplate/error-rate, AnalysisTemplate/success-rate`,
    ]);
  });

  test('an arg without a value is refused; an arg no template declares is warned about', () => {
    const text = fixture('rollout.yaml').replace('- name: service-name', '- name: service');
    const { messages } = load(ARGO, { 'rollout.yaml': text });
    expect(messages.sort()).toEqual([
      `analysis.yaml:${lineOf(fixture('analysis.yaml'), '- name: service-name')}:7: arg "service-name" has no value; give it one in the rollout's analysis args`,
      expect.stringMatching(/^rollout.yaml:\d+:\d+: warning: arg "service" is not declared by any of the templates/),
    ]);
  });

  test('secretKeyRef args come from ROLLGEN_ARG_<NAME> at measurement time, never into the plan', () => {
    const text = fixture('analysis.yaml')
      .replace(
        '    - name: prometheus\n      value: http://127.0.0.1:9090\n  metrics:\n    - name: success-rate',
        '    - name: prometheus\n      value: http://127.0.0.1:9090\n    - name: api-token\n      valueFrom:\n        secretKeyRef: {name: prom, key: token}\n  metrics:\n    - name: success-rate',
      )
      .replace(
        '          query: |\n            sum(rate(http_requests_total{service',
        '          headers: [{key: Authorization, value: "Bearer {{args.api-token}}"}]\n          query: |\n            sum(rate(http_requests_total{service',
      );
    const { app, messages } = load(ARGO, { 'analysis.yaml': text });
    expect(messages).toEqual([]);
    const p = gatesOf(app.rollouts[0].analysis, 1)[0].spec.metrics[0].provider as Extract<
      ProviderSpec,
      { kind: 'prometheus' }
    >;
    expect(p.headers).toEqual([{ key: 'Authorization', value: 'Bearer {{args.api-token}}' }]);
    expect(p.secretArgs).toEqual([{ name: 'api-token', env: 'ROLLGEN_ARG_API_TOKEN' }]);
  });

  test("Argo's metric rules: count > 1 needs an interval; durations are Go durations", () => {
    const text = fixture('analysis.yaml')
      .replace('interval: 1s\n      count: 3', 'count: 3')
      .replace('interval: 30s', 'interval: 30 seconds');
    const { messages } = load(ARGO, { 'analysis.yaml': text });
    expect(messages).toEqual([
      expect.stringMatching(/metric "success-rate": interval must be specified when count > 1$/),
      expect.stringMatching(/interval "30 seconds" is not a duration such as 30s, 5m or 1h30m$/),
    ]);
  });

  test('two templates with one metric name are refused (Argo merges templateRefs by concatenation)', () => {
    const text = fixture('rollout.yaml')
      .replace(
        '              - templateName: success-rate',
        '              - templateName: success-rate\n              - templateName: error-rate',
      )
      .replace(
        '  analysis:\n        templates:\n          - templateName: error-rate',
        '  analysis:\n        templates:\n          - templateName: error-rate\n          - templateName: error-rate',
      );
    const { messages } = load(ARGO, { 'rollout.yaml': text });
    expect(messages.some((m) => /two metrics have the same name "error-rate"/.test(m))).toBe(true);
  });

  test('a step analysis metric without count is warned about: it would never complete', () => {
    const text = fixture('analysis.yaml').replace('      interval: 1s\n      count: 3\n', '      interval: 1s\n');
    const { messages } = load(ARGO, { 'analysis.yaml': text });
    expect(messages).toEqual([
      `analysis.yaml:${lineOf(text, '- name: success-rate')}:7: warning: metric "success-rate" has an interval and no count: in the analysis gating step 1 it is measured until it fails and never completes (as in Argo), so that gate never passes and the rollout waits there until you promote or abort it; add count, or use it as background analysis`,
    ]);
  });

  test('a ClusterAnalysisTemplate is found by clusterScope only; an AnalysisTemplate of another namespace is refused', () => {
    const cluster = fixture('analysis.yaml').replace(
      'kind: AnalysisTemplate\nmetadata:\n  name: error-rate',
      'kind: ClusterAnalysisTemplate\nmetadata:\n  name: error-rate',
    );
    const scoped = fixture('rollout.yaml').replace(
      '          - templateName: error-rate',
      '          - templateName: error-rate\n            clusterScope: true',
    );
    expect(load(ARGO, { 'analysis.yaml': cluster, 'rollout.yaml': scoped }).messages).toEqual([]);
    expect(load(ARGO, { 'analysis.yaml': cluster }).messages).toEqual([
      expect.stringMatching(
        /AnalysisTemplate "error-rate" not found .*; known: AnalysisTemplate\/success-rate, ClusterAnalysisTemplate\/error-rate$/,
      ),
    ]);
    const elsewhere = fixture('analysis.yaml').replace('  name: error-rate', '  name: error-rate\n  namespace: other');
    const inNs = fixture('rollout.yaml').replace('  name: echoserver\n', '  name: echoserver\n  namespace: shop\n');
    const messages = load(ARGO, { 'analysis.yaml': elsewhere, 'rollout.yaml': inNs }).messages;
    // (The other manifests have no namespace, so the rollout's are reported missing too.)
    expect(messages.filter((m) => m.includes('AnalysisTemplate'))).toEqual([
      expect.stringMatching(
        /AnalysisTemplate error-rate is in namespace other, the rollout in shop: Argo would not find it/,
      ),
    ]);
  });

  test('request fields rollgen does not read are warned about where they are', () => {
    const text = fixture('rollout.yaml').replace(
      '        startingStep: 2',
      '        startingStep: 2\n        analysisRunMetadata: {labels: {a: b}}',
    );
    expect(load(ARGO, { 'rollout.yaml': text }).messages).toEqual([
      `rollout.yaml:${lineOf(text, 'analysisRunMetadata')}:30: warning: analysis field analysisRunMetadata is ignored by rollgen`,
    ]);
  });

  test('dryRun of the rollout analysis marks matching metrics', () => {
    const text = fixture('rollout.yaml').replace(
      '        startingStep: 2',
      '        startingStep: 2\n        dryRun:\n          - metricName: error-.*',
    );
    const { app, messages } = load(ARGO, { 'rollout.yaml': text });
    expect(messages).toEqual([]);
    expect(gatesOf(app.rollouts[0].analysis, 2)[0].spec.metrics[0].dryRun).toBe(true);
  });

  // A dryRun entry without a metricName read as the pattern "", which matches every metric: the analysis could never fail.
  test.each([
    ['a string instead of {metricName}', '          - error-rate'],
    ['a misspelt key', '          - metricname: error-rate'],
    ['a number', '          - metricName: 5'],
  ])('a dryRun entry that is %s is refused at its line, not read as "every metric"', (_what, entry) => {
    const text = fixture('rollout.yaml').replace(
      '        startingStep: 2',
      `        startingStep: 2\n        dryRun:\n${entry}`,
    );
    const { app, messages } = load(ARGO, { 'rollout.yaml': text });
    const line = lineOf(text, entry.trim());
    expect(messages).toEqual([
      `rollout.yaml:${line}:13: dryRun entries are {metricName: <regular expression>}; this one has no metricName`,
    ]);
    expect(app.rollouts[0].analysis?.background).toBeUndefined();
  });
});

describe('Kruise apps: analysis from rollgen.yaml with shared templates', () => {
  const config = (value: unknown, file = 'rollgen.yaml') => ({
    value,
    at: { locate: () => ({ file, line: 9, col: 5 }), path: ['apps', 0, 'analysis'] },
  });

  test('background from startingStep and a step analysis, templates from the shared directory', () => {
    const { app, messages } = load(
      KRUISE,
      {},
      {
        sharedTemplates: docsOf(ARGO).filter((d) => (d.value as { kind: string }).kind === 'AnalysisTemplate'),
        config: config({
          background: {
            templates: [{ templateName: 'error-rate' }],
            args: [{ name: 'track', valueFrom: { podTemplateHashValue: 'Stable' } }],
            startingStep: 3,
          },
          steps: [
            { step: 1, templates: [{ templateName: 'success-rate' }], args: [{ name: 'service-name', value: 'web' }] },
          ],
        }),
      },
    );
    expect(messages).toEqual([]);
    const a = app.rollouts[0].analysis;
    expect([1, 2, 3, 4].map((s) => gatesOf(a, s).map((g) => g.id))).toEqual([
      ['step-1'],
      [],
      ['background'],
      ['background'],
    ]);
    expect((gatesOf(a, 3)[0].spec.metrics[0].provider as { query: string }).query).toContain('track="stable"');
    expect(app.rollouts[0].plan.steps[0].analysis?.[0]).toMatchObject({ kind: 'step', templates: ['success-rate'] });
  });

  test('a step the rollout does not have is refused at the entry', () => {
    const { messages } = load(
      KRUISE,
      {},
      { config: config({ steps: [{ step: 9, templates: [{ templateName: 'x' }] }] }) },
    );
    expect(messages).toEqual(['rollgen.yaml:9:5: analysis step 9 is not a step of rollout rollouts-demo (1-4)']);
  });

  test('an Argo Rollout with analysis in rollgen.yaml is told to write it in the Rollout', () => {
    const { messages } = load(ARGO, {}, { config: config({ steps: [] }) });
    expect(messages).toEqual([expect.stringMatching(/is an Argo Rollout: write its analysis in the Rollout/)]);
  });
});
