/**
 * examples/health: the Flux and Argo CD manifests that post commit statuses, and the rollgen.yaml
 * beside each. The statuses these configs produce (context and state, derived as Flux's
 * notification-controller and Argo CD Notifications derive them) must be what the rollgen.yaml
 * health gate waits for: success is healthy, a failure or error fails the step.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { judgeHealth } from '../src/flow/health';
import { readConfig } from '../src/io/config';
import type { CommitStatus } from '../src/scm/types';

const DIR = path.join(__dirname, '..', 'examples', 'health');
/** The rollgen.yaml files sit at the examples root, so the app they name is inside their repository. */
const EXAMPLES = path.dirname(DIR);
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests read as plain data
type Doc = any;
const docs = (file: string): Doc[] =>
  parseAllDocuments(fs.readFileSync(path.join(DIR, file), 'utf8')).map((d) => {
    expect(d.errors).toEqual([]);
    return d.toJS();
  });
const kind = (all: Doc[], k: string): Doc[] => all.filter((d) => d.kind === k);
const status = (context: string, state: CommitStatus['state']): CommitStatus => ({
  context,
  state,
  updatedAt: '2026-03-01T10:00:00Z',
});
const judge = (file: string, statuses: CommitStatus[]) => {
  const app = readConfig(path.join(EXAMPLES, `health-${file}`), EXAMPLES).apps[0];
  return judgeHealth(app.health!, [{ sha: 'c'.repeat(40), statuses, checkRuns: [] }]).state;
};

test('Flux: a github Provider and an Alert on the waiting Kustomization of the app output post what rollgen waits for', () => {
  const all = docs('flux.yaml');
  const [ks] = kind(all, 'Kustomization');
  const [provider] = kind(all, 'Provider');
  const [alert] = kind(all, 'Alert');
  expect(ks.apiVersion).toBe('kustomize.toolkit.fluxcd.io/v1');
  expect(ks.spec.wait).toBe(true);
  expect(provider.spec.type).toBe('github');
  expect(alert.spec.providerRef.name).toBe(provider.metadata.name);
  expect(alert.spec.eventSources).toContainEqual({ kind: 'Kustomization', name: ks.metadata.name });
  const config = readConfig(path.join(EXAMPLES, 'health-flux-rollgen.yaml'), EXAMPLES);
  expect(path.relative(config.root, config.apps[0].output)).toBe(path.normalize(ks.spec.path));
  // notification-controller: `<kind>/<name>/<first block of the Provider UID>`, lower-cased; info -> success, error -> failure.
  const context =
    `Kustomization/${ks.metadata.name}/${'6F2A1B3C-77d0-4c8e-9a3e-0c2b7f1e9d11'.split('-')[0]}`.toLowerCase();
  expect(judge('flux-rollgen.yaml', [status(context, 'success')])).toBe('healthy');
  expect(judge('flux-rollgen.yaml', [status(context, 'failure')])).toBe('failed');
  expect(judge('flux-rollgen.yaml', [status('kustomization/cart/6f2a1b3c', 'success')])).toBe('waiting');
});

test('Argo CD: every subscribed trigger sends a github status whose label rollgen waits for, with the state rollgen reads', () => {
  const all = docs('argocd.yaml');
  const [cm] = kind(all, 'ConfigMap');
  const [app] = kind(all, 'Application');
  expect(cm.data['service.github']).toMatch(/appID:/);
  const expected: Record<string, CommitStatus['state']> = {
    'on-deployed': 'success',
    'on-health-degraded': 'failure',
    'on-sync-failed': 'error',
  };
  const subscribed = Object.keys(app.metadata.annotations)
    .map((k) => /^notifications\.argoproj\.io\/subscribe\.([^.]+)\.github$/.exec(k)?.[1])
    .filter(Boolean);
  expect(subscribed.sort()).toEqual(Object.keys(expected).sort());
  for (const trigger of subscribed as string[]) {
    const [rule] = parseAllDocuments(cm.data[`trigger.${trigger}`])[0].toJS();
    const template = parseAllDocuments(cm.data[`template.${rule.send[0]}`])[0].toJS();
    const context = template.github.status.label.replace('{{.app.metadata.name}}', app.metadata.name);
    expect(template.github.status.state).toBe(expected[trigger]);
    const verdict = judge('argocd-rollgen.yaml', [status(context, template.github.status.state)]);
    expect([trigger, verdict]).toEqual([trigger, expected[trigger] === 'success' ? 'healthy' : 'failed']);
  }
  expect(readConfig(path.join(EXAMPLES, 'health-argocd-rollgen.yaml'), EXAMPLES).apps[0].onFailure).toBe('hold');
});
