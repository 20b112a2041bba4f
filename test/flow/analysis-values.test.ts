/**
 * A measurement's value reads the same in every output, as Argo Rollouts prints it (Go's
 * strconv.FormatFloat(v, 'f', -1, 64) of the float64 Prometheus returned): `rollgen analyze` text and
 * JSON, the record and summary of the check run, and the step PR's body. Real Prometheus: it
 * answers 1e-7 as "1e-07" and 1e21 as "1e+21", which Argo prints as 0.0000001 and
 * 1000000000000000000000.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseStore } from '../../src/flow/analysis-store';
import { runCli } from '../helpers/cli';
import { FlowWorld } from '../helpers/flow-world';
import { git } from '../helpers/git-repo';
import { PrometheusServer, describeWithPrometheus, startPrometheus } from '../helpers/prometheus';

/** metric -> [query, condition, the value as Argo prints it]. */
const METRICS: Record<string, [string, string, string]> = {
  tiny: ['vector(0.0000001)', 'result[0] < 1', '[0.0000001]'],
  sum: ['vector(0.7 + 0.1)', 'result[0] > 0.5', '[0.7999999999999999]'],
  huge: ['1e21', 'result > 1', '1000000000000000000000'],
};

const template = (address: string) => `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: values
spec:
  metrics:
${Object.entries(METRICS)
  .map(
    ([name, [query, condition]]) => `    - name: ${name}
      interval: 60s
      count: 2
      successCondition: ${condition}
      provider:
        prometheus:
          address: ${address}
          query: "${query}"
`,
  )
  .join('')}`;

const CONFIG = `apps:
  - source: apps/echo
    output: deploy/echo
    gates: {unpaused: automatic}
    analysis:
      steps:
        - step: 3
          templates: [{templateName: values}]
`;

let prom: PrometheusServer;
let w: FlowWorld;

describeWithPrometheus('measurement values print as Argo prints them, in every output', () => {
  beforeAll(async () => {
    prom = await startPrometheus([{ metric: 'up_total', labels: { job: 'x' }, value: (i) => i }]);
    w = await FlowWorld.echoAtStep(CONFIG, 3, (repo) =>
      fs.writeFileSync(path.join(repo, 'apps', 'echo', 'analysis.yaml'), template(prom.address)),
    );
  });
  afterAll(async () => {
    await prom?.stop();
    fs.rmSync(w.repo, { recursive: true, force: true });
  });

  test('rollgen analyze: the text table and the JSON record show the same values', async () => {
    const text = await runCli(['analyze', 'echo', '--step', '3', '--no-wait'], w.repo);
    expect(text.stderr).toBe('');
    const json = await runCli(['analyze', 'echo', '--step', '3', '--no-wait', '--json'], w.repo);
    const [outcome] = JSON.parse(json.stdout).outcomes;
    for (const [name, [, , argo]] of Object.entries(METRICS)) {
      const rows = text.stdout.split('\n').filter((l) => / Successful {2}\S/.test(l) && l.endsWith(argo));
      expect({ name, rows: rows.length }).toEqual({ name, rows: 2 });
      const metric = outcome.record.metrics.find((m: { name: string }) => m.name === name);
      expect(metric.measurements.map((m: { value: string }) => m.value)).toEqual([argo, argo]);
    }
    expect(text.stdout).not.toMatch(/e[-+]\d/);
  });

  test('the check run (record, table, chart) and the step PR body show the same values', async () => {
    const landing = git(w.repo, ['log', '-1', '--format=%H', '--', 'deploy/echo']).trim();
    const step4 = w.openPr('rollgen/echo/step-4');
    expect(step4.body).toContain(`| tiny | success: result[0] < 1 | █ | [0.0000001] (Successful) |`);
    w.later(60);
    const r = await w.pr();
    expect(r.stderr).toBe('');
    const [run] = w.fake.runs.get(landing)!;
    const records = Object.values(parseStore(run.output!.text));
    for (const [name, [, condition, argo]] of Object.entries(METRICS)) {
      const metric = records[0].metrics.find((m) => m.name === name)!;
      expect(metric.measurements.map((m) => m.value)).toEqual([argo, argo]);
      expect(run.output!.summary).toContain(`| ${name} | success: ${condition} | ██ | ${argo} (Successful) |`);
    }
    // The charts read the numbers back from the same text.
    expect(run.output!.summary).toContain('  line [0.0000001, 0.0000001]\n  line [1, 1]');
    expect(run.output!.summary).toContain('  line [1000000000000000000000, 1000000000000000000000]');
    expect(run.output!.summary).not.toMatch(/\de[-+]?\d/);
    expect(w.fake.pull(step4.number).body).toContain(
      '| huge | success: result > 1 | ██ | 1000000000000000000000 (Successful) |',
    );
  });
});
