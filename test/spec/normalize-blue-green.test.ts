import { buildPlan } from '../../src/plan/plan';
import { ResourceSet } from '../../src/model/resource-set';
import { checkRollout } from '../../src/spec/rules';
import { argo, FILE, kruise, kruiseV1beta1, lineOf } from '../plan/helpers';

/** An Argo blue-green Rollout with workloadRef; `fields` are written under blueGreen, flush left. */
const argoBlueGreen = (fields: string, replicas = 4) => `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: web
spec:
  replicas: ${replicas}
  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  strategy:
    blueGreen:
${fields
  .split('\n')
  .map((l) => `      ${l}`)
  .join('\n')}
`;

describe('Argo blueGreen', () => {
  test('GIVEN Argo defaults WHEN normalized THEN preview (all pods, automatic) and switch (30 s scale-down delay), no canary fields', () => {
    const { rollout, diagnostics } = argo(argoBlueGreen('activeService: web'));
    expect(diagnostics).toEqual([]);
    expect(rollout.blueGreen).toBe(true);
    expect(rollout.style).toBe('canary');
    expect(rollout.traffic).toEqual({
      stableService: 'web',
      generateCanaryService: false,
      weightTotal: 100,
      providers: [],
      managedRoutes: [],
      // A missing Service is reported where its name is written; a name left out, at the strategy.
      serviceOrigins: {
        stable: { file: 'apps/echoserver/rollout.yaml', line: 10, col: 22 },
        strategy: { file: 'apps/echoserver/rollout.yaml', line: 10, col: 7 },
      },
    });
    expect(rollout.steps.map((s) => [s.name, s.replicas, s.pause, s.switched ?? false])).toEqual([
      ['preview', { count: 4 }, { kind: 'none' }, false],
      ['switch', { count: 4 }, { kind: 'timed', seconds: 30 }, true],
    ]);
    const plan = buildPlan(rollout, 4);
    expect(plan.steps.map((s) => [s.canaryReplicas, s.stableReplicas, s.traffic.weight, s.gate.kind])).toEqual([
      [4, 4, 0, 'automatic'],
      [4, 4, 100, 'timed'],
    ]);
  });

  test('GIVEN autoPromotionEnabled false and autoPromotionSeconds WHEN normalized THEN the switch waits for a person (Argo ignores the seconds)', () => {
    const { rollout } = argo(
      argoBlueGreen('activeService: web\nautoPromotionEnabled: false\nautoPromotionSeconds: 60'),
    );
    expect(rollout.steps[0].pause).toEqual({ kind: 'manual' });
  });

  test('GIVEN autoPromotionSeconds, previewReplicaCount, scaleDownDelaySeconds 0 and both analyses WHEN normalized THEN a timed preview gate, its pods, no delay after the switch and one analysis per gate', () => {
    const { rollout } = argo(
      argoBlueGreen(`activeService: web
previewService: web-preview
autoPromotionSeconds: 120
previewReplicaCount: 1
scaleDownDelaySeconds: 0
prePromotionAnalysis: {templates: [{templateName: smoke}]}
postPromotionAnalysis: {templates: [{templateName: errors}]}`),
    );
    expect(rollout.traffic.canaryService).toBe('web-preview');
    expect(rollout.steps.map((s) => [s.replicas, s.pause])).toEqual([
      [{ count: 1 }, { kind: 'timed', seconds: 120 }],
      [{ count: 4 }, { kind: 'none' }],
    ]);
    expect(rollout.steps.map((s) => s.analyses?.map((a) => a.templates[0].templateName))).toEqual([
      ['smoke'],
      ['errors'],
    ]);
  });

  test('GIVEN a preview Service equal to the active one, or more preview pods than replicas WHEN normalized THEN an error and a warning at their lines', () => {
    const text = argoBlueGreen('activeService: web\npreviewService: web\npreviewReplicaCount: 9', 3);
    const { rollout, diagnostics } = argo(text);
    expect(diagnostics.map((d) => [d.line, d.severity, d.message])).toEqual([
      [lineOf(text, 'previewService'), 'error', 'previewService must differ from activeService'],
      [
        lineOf(text, 'previewReplicaCount'),
        'warning',
        'previewReplicaCount 9 is more than replicas (3); the preview runs 3 pods',
      ],
    ]);
    expect(rollout.steps[0].replicas).toEqual({ count: 3 });
  });

  test('GIVEN both canary and blueGreen WHEN normalized THEN an error at strategy', () => {
    const text = argoBlueGreen('activeService: web').replace('  strategy:\n', '  strategy:\n    canary: {steps: []}\n');
    const { diagnostics } = argo(text);
    expect(diagnostics.map((d) => `${d.file}:${d.line} ${d.message}`)).toEqual([
      `${FILE}:${lineOf(text, 'canary: {steps: []}')} strategy needs exactly one of canary and blueGreen; keep the one you mean`,
    ]);
  });

  test('GIVEN maxUnavailable WHEN normalized THEN it bounds the rendered Deployments like the canary one', () => {
    const { rollout } = argo(argoBlueGreen('activeService: web\nmaxUnavailable: 1'));
    expect(rollout.workload.deploymentSpec).toEqual({
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
    });
  });

  test('GIVEN abortScaleDownDelaySeconds WHEN normalized THEN the removal after an abort waits that long (default 30 s); 0 removes at once, warned where written', () => {
    expect(buildPlan(argo(argoBlueGreen('activeService: web')).rollout, 4).abortGate).toEqual({
      kind: 'timed',
      seconds: 30,
    });
    const delayed = argo(argoBlueGreen('activeService: web\nabortScaleDownDelaySeconds: 90')).rollout;
    expect(buildPlan(delayed, 4).abortGate).toEqual({ kind: 'timed', seconds: 90 });
    const text = argoBlueGreen('activeService: web\nabortScaleDownDelaySeconds: 0');
    const { rollout, diagnostics } = argo(text);
    expect(buildPlan(rollout, 4).abortGate).toBeUndefined();
    expect(diagnostics.map((d) => [d.line, d.severity, d.message.split(';')[0]])).toEqual([
      [
        lineOf(text, 'abortScaleDownDelaySeconds'),
        'warning',
        'abortScaleDownDelaySeconds 0 keeps the preview pods in Argo until the next update',
      ],
    ]);
  });
});

describe('Kruise v1beta1 blueGreen', () => {
  const blueGreen = (steps: string) => kruiseV1beta1(steps).replace('    canary:\n', '    blueGreen:\n');

  test('GIVEN steps with traffic 0% WHEN checked THEN canary style, no error; the same 0% in a canary is refused', () => {
    const steps = '- replicas: 50%\n  traffic: 0%\n  pause: {}\n- replicas: 100%\n  traffic: 100%';
    const bg = kruise(blueGreen(steps));
    expect(bg.diagnostics).toEqual([]);
    expect(bg.rollout.style).toBe('canary');
    expect(bg.rollout.blueGreen).toBe(true);
    expect(bg.rollout.steps.map((s) => s.weight)).toEqual([0, 100]);
    const messages = (r: typeof bg.rollout) =>
      checkRollout(r, new ResourceSet([]))
        .map((d) => d.message)
        .filter((m) => m.includes('traffic'));
    expect(messages(bg.rollout)).toEqual([]);
    expect(messages(kruise(kruiseV1beta1(steps)).rollout)).toEqual([
      'rollout rollouts-demo: step 1: traffic must be greater than 0% (Kruise canary; 0% is for blueGreen), or leave it out',
    ]);
  });

  test('GIVEN a last step below 100% traffic WHEN normalized THEN a warning at that step', () => {
    const text = blueGreen('- replicas: 100%\n  traffic: 0%\n  pause: {}\n- replicas: 100%\n  traffic: 50%');
    const { diagnostics } = kruise(text);
    expect(diagnostics.map((d) => [d.line, d.severity])).toEqual([[lineOf(text, 'replicas: 100%', 2), 'warning']]);
    expect(diagnostics[0].message).toContain('end with traffic: 100%');
  });
});
