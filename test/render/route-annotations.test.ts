import type { TrafficGenerator } from '../../src/contract/generator';
import { defaultTrackLabel, SYNC_WAVE } from '../../src/model/track';
import { renderRouteObjects } from '../../src/render/render-rollout';
import { optionsOrigin, sourceResources, traffic, webRollout } from '../helpers/generator-context';

/** A provider that writes its annotation keys in the order it happens to compute them. */
const unsorted: TrafficGenerator = {
  id: 'unsorted',
  summary: 'test provider',
  capabilities: {} as TrafficGenerator['capabilities'],
  optionsSchema: {},
  check: () => [],
  claims: () => [],
  render: () => [
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: {
        name: 'web-canary',
        annotations: { 'z.example/last': '1', 'a.example/first': '2', 'm.example/mid': '3' },
      },
    },
  ],
  simulate: () => undefined,
};

test('GIVEN a provider writing annotation keys in any order WHEN the core renders its routes THEN the keys are sorted once, then the sync wave follows', () => {
  const [route] = renderRouteObjects(
    {
      app: 'web',
      rollout: webRollout(),
      resources: sourceResources('apps/web/app.yaml', []),
      providers: [{ generator: unsorted, options: {}, origin: optionsOrigin }],
      track: defaultTrackLabel,
    },
    traffic({ weight: 20 }),
    0,
  );
  expect(Object.keys(route.metadata.annotations ?? {})).toEqual([
    'a.example/first',
    'm.example/mid',
    'z.example/last',
    SYNC_WAVE,
  ]);
});
