import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from './helpers/cli';

const FULL_LINK = path.join(__dirname, '..', 'examples', 'kruise-istio', 'full-link');

/** mocka also routes its own VirtualService by weight, the route the shared TrafficRouting already renders. */
const OWN_ROUTES = `      trafficRoutings:
        - service: mocka
          customNetworkRefs:
            - {apiVersion: networking.istio.io/v1beta1, kind: VirtualService, name: mocka}
            - {apiVersion: networking.istio.io/v1beta1, kind: DestinationRule, name: mocka}
      steps:
        - replicas: 1
          traffic: "20%"
`;

test('a rollout routing the same VirtualService route as its TrafficRouting is an error, not a silently lost weight', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-tr-claims-'));
  fs.cpSync(FULL_LINK, dir, { recursive: true });
  const file = path.join(dir, 'rollouts.yaml');
  const text = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, text.replace('      steps:\n        - replicas: 1\n', OWN_ROUTES));
  const r = await runCli(['validate', '.'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /^mocka\.yaml:\d+:\d+: app \S+, TrafficRouting full-link and app \S+, rollout mocka \(mocka\.yaml:\d+\) both need a canary for http route #0 of VirtualService "mocka".*let one of them route it$/m,
  );
  fs.writeFileSync(file, text);
  expect((await runCli(['validate', '.'], dir)).code).toBe(0);
  fs.rmSync(dir, { recursive: true, force: true });
});
