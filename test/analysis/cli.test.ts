import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';

const ARGO = path.join(__dirname, 'fixtures/argo');
const KRUISE = path.join(__dirname, '../../examples/kruise-nginx/echoserver');

/** A repo: the Kruise example as app `web`, the fixture's templates in a shared directory. */
function repo(analysis: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-analysis-repo-'));
  fs.cpSync(KRUISE, path.join(root, 'apps/web'), { recursive: true });
  fs.mkdirSync(path.join(root, 'analysis'));
  fs.copyFileSync(path.join(ARGO, 'analysis.yaml'), path.join(root, 'analysis/templates.yaml'));
  fs.writeFileSync(
    path.join(root, 'rollgen.yaml'),
    `analysisTemplates: analysis\napps:\n  - source: apps/web\n    output: deploy/web\n${analysis}`,
  );
  return root;
}

describe('rollgen plan shows the analysis at each gate', () => {
  test('Argo: the step analysis at its step, the background one from startingStep on', async () => {
    const r = await runCli(['plan', ARGO], ARGO);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1         1       4       20%      -        -       automatic + analysis success-rate');
    expect(r.stdout).toContain('step 1 gate: step analysis success-rate');
    expect(r.stdout).toContain(
      '  success-rate (prometheus): success: len(result) == 0 || result[0] >= 0.95; count 3; every 1s; failureLimit 1',
    );
    expect(r.stdout).toContain('step 2 gate: background analysis error-rate');
    expect(r.stdout).not.toContain('step 1 gate: background');
  });

  test('Kruise: rollgen.yaml analysis with the shared templates directory', async () => {
    const root = repo(
      [
        '    analysis:',
        '      background:',
        '        templates: [{templateName: error-rate}]',
        '        args: [{name: track, valueFrom: {podTemplateHashValue: Latest}}]',
        '        startingStep: 2',
        '      steps:',
        '        - step: 1',
        '          templates: [{templateName: success-rate}]',
        '          args: [{name: service-name, value: web}]',
        '',
      ].join('\n'),
    );
    const r = await runCli(['plan', 'web', '--json'], root);
    expect(r.stderr).toBe('');
    const steps = JSON.parse(r.stdout).apps[0].rollouts[0].steps;
    expect(steps.map((s: { analysis?: { id: string }[] }) => (s.analysis ?? []).map((a) => a.id))).toEqual([
      ['step-1'],
      ['background'],
      ['background'],
      ['background'],
    ]);
  });

  test('a mistake in rollgen.yaml analysis is refused with its location', async () => {
    const root = repo('    analysis:\n      steps:\n        - step: 1\n          templates: [{templateName: nope}]\n');
    const r = await runCli(['plan', 'web'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^rollgen.yaml:8:23: AnalysisTemplate "nope" not found/m);
  });

  test('rollgen analyze without a live step asks for --step; a step without analysis says so', async () => {
    expect((await runCli(['analyze', ARGO], ARGO)).stderr).toMatch(/has no live step; name one with --step N/);
    const none = await runCli(['analyze', path.join(KRUISE), '--step', '1'], KRUISE);
    expect(none).toMatchObject({ code: 0, stdout: 'no analysis gates this step\n' });
  });
});

test('GIVEN a metric whose successCondition is mistyped WHEN validated THEN warned at the key with the field meant, and that the gate now checks nothing', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-analysis-typo-'));
  try {
    fs.cpSync(path.join(__dirname, '../../examples/argo-analysis/shop'), dir, { recursive: true });
    const file = path.join(dir, 'analysis-templates.yaml');
    const text = fs.readFileSync(file, 'utf8').replace('      successCondition:', '      succesCondition:');
    fs.writeFileSync(file, text);
    const line = text.split('\n').findIndex((l) => l.includes('succesCondition')) + 1;
    const r = await runCli(['validate', '.'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `analysis-templates.yaml:${line}:24: warning: metric field succesCondition is ignored by rollgen; did you mean successCondition?`,
    );
    expect(r.stderr).toMatch(
      /warning: metric "[\w-]+" has no successCondition or failureCondition, so every measurement passes \(as in Argo\): this gate checks nothing/,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
