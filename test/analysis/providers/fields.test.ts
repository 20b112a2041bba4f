import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../../helpers/cli';

const EXAMPLES = path.join(__dirname, '../../../examples/argo-analysis');

/** `rollgen plan` of an example whose templates were edited by `edit`: its exit code and stderr. */
async function planEdited(example: string, edit: (text: string) => string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rollgen-${example}-`));
  fs.cpSync(path.join(EXAMPLES, example), dir, { recursive: true });
  const file = path.join(dir, 'analysis-templates.yaml');
  const text = edit(fs.readFileSync(file, 'utf8'));
  fs.writeFileSync(file, text);
  const r = await runCli(['plan', dir], dir);
  const line = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
  return { ...r, line };
}

describe("Argo's provider fields are checked at plan time, at their line", () => {
  test('datadog: queries need apiVersion v2; several queries need a formula; an unknown field is named', async () => {
    const v1 = await planEdited('datadog', (t) => t.replace('apiVersion: v2', 'apiVersion: v1'));
    expect(v1.code).toBe(2);
    expect(v1.stderr).toContain(
      `analysis-templates.yaml:${v1.line('a: sum:')}:13: datadog apiVersion v1 takes only query; queries and formula need apiVersion: v2`,
    );
    const noFormula = await planEdited('datadog', (t) => t.replace('          formula: "a / b"\n', ''));
    expect(noFormula.stderr).toMatch(/datadog queries with more than one query need a formula/);
    const typo = await planEdited('datadog', (t) => t.replace('formula: "a / b"', 'fomula: "a / b"'));
    expect(typo.stderr).toContain(
      `:${typo.line('fomula')}:19: datadog field fomula is not an Argo field; did you mean formula?`,
    );
  });

  test('newRelic needs its query; cloudWatch queries need an id and expression or metricStat', async () => {
    const nr = await planEdited('newrelic', (t) => t.replace(/ {10}query: \|\n.*\n/, '          profile: eu\n'));
    expect(nr.stderr).toMatch(/newRelic provider needs query/);
    const cw = await planEdited('cloudwatch', (t) =>
      t.replace('            - id: rate\n              expression: errors / requests\n', '            - label: rate\n'),
    );
    expect(cw.stderr).toMatch(/cloudWatch provider needs metricDataQueries\.0\.id/);
    expect(cw.stderr).toMatch(/a metricDataQuery needs expression or metricStat/);
  });

  test('prometheus: sigv4 outside Amazon Managed Prometheus is warned (Argo ignores it); a roleArn that is not a role ARN and a rangeQuery rollgen cannot evaluate are refused', async () => {
    const elsewhere = await planEdited('amazon-prometheus', (t) =>
      t.replace(/address: https:\/\/aps-workspaces\S+/, 'address: http://prometheus.monitoring:9090'),
    );
    expect(elsewhere.code).toBe(0);
    expect(elsewhere.stderr).toContain(
      `analysis-templates.yaml:${elsewhere.line('region: us-west-2')}:15: warning: sigv4 is not used: as in Argo, requests are signed only for an Amazon Managed Prometheus address (aps-workspaces)`,
    );
    const role = await planEdited('amazon-prometheus', (t) =>
      t.replace('region: us-west-2', 'region: us-west-2\n              roleArn: arn:aws:iam::123456789012:role/amp'),
    );
    expect(role.stderr).toBe('');
    expect(role.code).toBe(0);
    const notArn = await planEdited('amazon-prometheus', (t) =>
      t.replace('region: us-west-2', 'region: us-west-2\n              roleArn: amp-reader'),
    );
    expect(notArn.code).toBe(2);
    expect(notArn.stderr).toContain(
      `analysis-templates.yaml:${notArn.line('roleArn: amp-reader')}:24: sigv4 roleArn "amp-reader" is not a role ARN such as arn:aws:iam::123456789012:role/amp-reader`,
    );
    const range = await planEdited('amazon-prometheus', (t) =>
      t.replace(
        '          authentication:',
        '          rangeQuery: {start: "now() - duration(\\"5m\\")", end: "now()", step: 1m}\n          authentication:',
      ),
    );
    expect(range.stderr).toBe('');
    expect(range.code).toBe(0);
    const future = await planEdited('amazon-prometheus', (t) =>
      t.replace(
        '          authentication:',
        '          rangeQuery: {start: "now()", end: "now() + now()", step: 1m}\n          authentication:',
      ),
    );
    expect(future.code).toBe(2);
    expect(future.stderr).toContain(
      `analysis-templates.yaml:${future.line('rangeQuery')}:45: rangeQuery.end: "now() + now()" adds two times;`,
    );
  });

  test('kayenta: a condition is warned (the score decides); without interval or lookback it is refused', async () => {
    const cond = await planEdited('kayenta', (t) =>
      t.replace('      count: 2\n', '      count: 2\n      successCondition: result > 90\n'),
    );
    expect(cond.code).toBe(0);
    expect(cond.stderr).toContain(
      `:${cond.line('successCondition')}:25: warning: successCondition is not used: Kayenta's score against its threshold decides`,
    );
    const noWindow = await planEdited('kayenta', (t) => t.replace('      interval: 5m\n      count: 2\n', ''));
    expect(noWindow.code).toBe(2);
    expect(noWindow.stderr).toMatch(
      /metric "mann-whitney": kayenta judges the metric's interval; add interval, or lookback: true/,
    );
  });
});
