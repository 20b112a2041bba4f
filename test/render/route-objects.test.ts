import type { TrafficGenerator } from '../../src/contract/generator';
import { describeError, exitCodeFor, ProviderError } from '../../src/errors';
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
    'step 1',
  );
  expect(Object.keys(route.metadata.annotations ?? {})).toEqual([
    'a.example/first',
    'm.example/mid',
    'z.example/last',
    SYNC_WAVE,
  ]);
});

test('GIVEN a provider that throws while rendering WHEN the core renders its routes THEN a provider error names app, rollout, state and provider, exit 1', () => {
  const broken: TrafficGenerator = {
    ...unsorted,
    id: 'broken',
    render: () => {
      throw new Error('Ingress "web" not found');
    },
  };
  const render = () =>
    renderRouteObjects(
      {
        app: 'shop',
        rollout: webRollout(),
        resources: sourceResources('apps/web/app.yaml', []),
        providers: [{ generator: broken, options: {}, origin: optionsOrigin }],
        track: defaultTrackLabel,
      },
      traffic({ weight: 20 }),
      0,
      'step 2',
    );
  expect(render).toThrow(ProviderError);
  let error: unknown;
  try {
    render();
  } catch (e) {
    error = e;
  }
  expect(describeError(error, false)).toBe(
    'error: app shop, rollout web, step 2: provider broken failed: Ingress "web" not found',
  );
  expect(exitCodeFor(error)).toBe(1);
});
