/**
 * The scheduled `rollgen pr` loop measuring Datadog: the keys come from the variables rollgen.yaml
 * `metricSecrets` names (as GitHub secrets in the workflow's env), reach only the Datadog address,
 * and appear in no check run, PR or log.
 */
import * as fs from 'fs';
import * as path from 'path';
import { FlowWorld } from '../helpers/flow-world';
import { bumpImage, commitAll, git } from '../helpers/git-repo';
import { VendorServer, startVendor } from '../helpers/vendor-server';

const API_KEY = 'dd-api-key-0123456789abcdef';
const APP_KEY = 'dd-app-key-fedcba9876543210';
let errorRate = 0.01;
let dd: VendorServer;
let w: FlowWorld;
beforeAll(async () => {
  dd = await startVendor(() => ({
    json: {
      data: { type: 'scalar_response', attributes: { columns: [{ name: 'a', type: 'number', values: [errorRate] }] } },
    },
  }));
});
afterAll(() => dd.close());
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

const TEMPLATE = `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: error-rate
spec:
  metrics:
    - name: error-rate
      successCondition: default(result, 0) < 0.05
      provider:
        datadog:
          apiVersion: v2
          queries:
            a: sum:requests.error.rate{service:echo}.as_count()
            b: sum:requests.request.rate{service:echo}.as_count()
          formula: "a / b"
`;

const CONFIG = `metricSecrets:
  datadog:
    api-key: DATADOG_API_KEY
    app-key: DATADOG_APP_KEY
    address: DATADOG_SITE
apps:
  - source: apps/echo
    output: deploy/echo
    gates: {unpaused: automatic}
    analysis:
      steps:
        - step: 3
          templates: [{templateName: error-rate}]
`;

test('a healthy error rate passes the step-3 gate: keys from the named variables, sent to Datadog only, shown nowhere', async () => {
  errorRate = 0.01;
  w = new FlowWorld(['echo'], CONFIG);
  w.env = { ...w.env, DATADOG_API_KEY: API_KEY, DATADOG_APP_KEY: APP_KEY, DATADOG_SITE: dd.url };
  fs.writeFileSync(path.join(w.repo, 'apps', 'echo', 'analysis.yaml'), TEMPLATE);
  commitAll(w.repo, 'datadog analysis', w.now);
  const runs = [await w.pr()];
  w.merge(w.openPr('rollgen/echo/adopt').number);
  runs.push(await w.pr(), await w.pr());
  bumpImage(w.repo, 'echo', '2.54', w.now);
  for (let s = 1; s <= 3; s++) {
    runs.push(await w.pr());
    w.merge(w.openPr(`rollgen/echo/step-${s}`).number);
  }
  runs.push(await w.pr());
  expect(dd.seen).toHaveLength(1);
  expect([dd.seen[0].headers['dd-api-key'], dd.seen[0].headers['dd-application-key']]).toEqual([API_KEY, APP_KEY]);
  expect(JSON.parse(dd.seen[0].body).data.attributes.formulas).toEqual([{ formula: 'a / b' }]);
  const landing = git(w.repo, ['log', '-1', '--format=%H', '--', 'deploy/echo']).trim();
  expect(w.fake.runs.get(landing)![0]).toMatchObject({ conclusion: 'success' });
  const everything = JSON.stringify([runs, [...w.fake.runs.entries()], w.fake.pulls, w.fake.comments]);
  expect(everything).toContain('error-rate');
  expect(everything).not.toContain(API_KEY);
  expect(everything).not.toContain(APP_KEY);
});
