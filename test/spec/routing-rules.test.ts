import { runCli } from '../helpers/cli';
import { exampleApps, lineOf } from '../helpers/example-app';

/** Routing references that name nothing (or not what was meant): refused or warned once, at the reference. */
const app = exampleApps('rollgen-routing-rules-');
const example = app.example;

test('GIVEN a header route missing from managedRoutes WHEN validated THEN refused once, at the step that sets it (not at every step after)', async () => {
  const text = example('apisix/web', 'rollout.yaml', (t) =>
    t.replace('          - name: beta-users\n', '          - name: other\n'),
  );
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(2);
  const told = r.stderr.split('\n').filter((l) => l.includes('must be listed in trafficRouting.managedRoutes'));
  expect(told).toEqual([
    `src/rollout.yaml:${lineOf(text, '- setHeaderRoute:')}:11: rollout web: route "beta-users" must be listed in trafficRouting.managedRoutes`,
  ]);
});

test('GIVEN a mistyped trafficRoutingRef WHEN validated THEN refused at each reference, naming the TrafficRouting meant', async () => {
  const text = example('kruise-istio/full-link', 'rollouts.yaml', (t) =>
    t.replaceAll('trafficRoutingRef: full-link', 'trafficRoutingRef: full-lnk'),
  );
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(2);
  const lines = text.split('\n').flatMap((l, i) => (l.includes('full-lnk') ? [i + 1] : []));
  expect(lines).toHaveLength(2);
  for (const [line, rollout] of lines.map((l, i) => [l, ['mocka', 'mockb'][i]]))
    expect(r.stderr).toContain(
      `src/rollouts.yaml:${line}:26: rollout ${rollout} references TrafficRouting "full-lnk", which is not in app src; did you mean "full-link"?`,
    );
});

test('GIVEN an Argo nginx additionalIngressAnnotations key rollgen sets per step WHEN validated THEN warned at that key, not at the nginx block', async () => {
  const text = example('argo-nginx/echoserver', 'rollout.yaml', (t) =>
    t.replace('canary-by-header: X-Canary', 'canary-weight: "90"'),
  );
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    `src/rollout.yaml:${lineOf(text, 'canary-weight: "90"')}:28: warning: annotation nginx.ingress.kubernetes.io/canary-weight is set per step by rollgen`,
  );
});

test('GIVEN a customNetworkRefs kind spelled almost like the object the app has WHEN validated THEN that one error, naming the kind meant (no RouteTemplate cascade)', async () => {
  example('kruise-istio/full-link', 'rollouts.yaml', (t) =>
    t.replace('kind: VirtualService, name: mockb}', 'kind: VirtualServce, name: mockb}'),
  );
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /^src\/rollouts\.yaml:\d+:\d+: customNetworkRefs: VirtualServce "mockb" not found in the app's manifests; did you mean kind VirtualService\? \(the app has VirtualService "mockb"\)\n$/,
  );
});
