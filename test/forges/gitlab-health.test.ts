/**
 * examples/health/gitlab: what Flux's `gitlab` provider and the Argo CD Notifications webhook post
 * to GitLab's commit statuses API (names and GitLab states, derived as those engines derive them),
 * sent to the loopback GitLab as they would send it, read back by rollgen's GitLab client and
 * judged by the rollgen.yaml beside the GitHub examples: success is healthy, `failed` fails the step.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { judgeHealth } from '../../src/flow/health';
import { readConfig } from '../../src/io/config';
import { createGitLabScm } from '../../src/scm/gitlab';
import { makeRepo } from '../helpers/git-repo';
import { git } from '../helpers/git-repo';
import { FakeGitLab } from './gitlab-server';

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests read as plain data
type Doc = any;
const docs = (file: string): Doc[] =>
  parseAllDocuments(fs.readFileSync(path.join(EXAMPLES, 'health', 'gitlab', file), 'utf8')).map((d) => {
    expect(d.errors).toEqual([]);
    return d.toJS();
  });
const kind = (all: Doc[], k: string): Doc[] => all.filter((d) => d.kind === k);

let fake: FakeGitLab;
let repo: string;
let sha: string;
beforeEach(async () => {
  fake = await FakeGitLab.start();
  repo = makeRepo(['echo'], 'apps:\n  - source: apps/*\n    output: deploy/{name}\n', new Date('2026-03-01T10:00:00Z'));
  fake.seed(repo);
  sha = git(repo, ['rev-parse', 'HEAD']).trim();
});
afterEach(async () => {
  await fake.close();
  fs.rmSync(repo, { recursive: true, force: true });
  expect(fake.violations).toEqual([]);
});

/** POST /projects/:id/statuses/:sha as the engines send it (PRIVATE-TOKEN or Bearer, JSON). */
async function post(project: string, body: Record<string, string>): Promise<void> {
  const res = await fetch(`${fake.apiUrl}/projects/${project}/statuses/${sha}`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': fake.token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
}

async function verdict(config: string): Promise<string> {
  const scm = createGitLabScm({ token: fake.token, repository: fake.project, apiUrl: fake.apiUrl, forge: 'gitlab' });
  const statuses = await scm.commitStatuses(sha);
  const app = readConfig(path.join(EXAMPLES, config), EXAMPLES).apps[0];
  return judgeHealth(app.health!, [{ sha, statuses, checkRuns: [] }]).state;
}

test.each([
  ['info', 'success', 'healthy'],
  ['error', 'failed', 'failed'],
])(
  'Flux gitlab provider: a %s event posts %s under kustomization/<name>/<uid block>, which rollgen judges %s',
  async (_severity, state, judged) => {
    const all = docs('flux.yaml');
    const [ks] = kind(all, 'Kustomization');
    const [provider] = kind(all, 'Provider');
    const [alert] = kind(all, 'Alert');
    expect(provider.spec.type).toBe('gitlab');
    expect(alert.spec.providerRef.name).toBe(provider.metadata.name);
    expect(alert.spec.eventSources).toEqual([{ kind: 'Kustomization', name: ks.metadata.name }]);
    // notification-controller: lower(kind/name/first block of the Provider's UID); info -> success, error -> failed.
    const uid = '6f2a1b3c-0d4e-4f5a-9b6c-7d8e9f0a1b2c';
    const name = `kustomization/${ks.metadata.name}/${uid.split('-')[0]}`;
    const project = encodeURIComponent(new URL(provider.spec.address).pathname.slice(1));
    expect(decodeURIComponent(project)).toBe('acme/platform/deploy');
    await post(encodeURIComponent(fake.project), { name, state, description: 'reconciliation succeeded' });
    expect(await verdict('health-flux-rollgen.yaml')).toBe(judged);
  },
);

test('Argo CD Notifications: every subscribed trigger posts through the gitlab webhook a status rollgen waits for, with a GitLab state it reads', async () => {
  const all = docs('argocd.yaml');
  const [cm] = kind(all, 'ConfigMap');
  const [app] = kind(all, 'Application');
  const service = parseAllDocuments(cm.data['service.webhook.gitlab'])[0].toJS();
  expect(service.url).toBe('https://gitlab.com/api/v4/projects/acme%2Fplatform%2Fdeploy');
  expect(service.headers.map((h: { name: string }) => h.name)).toEqual(['PRIVATE-TOKEN', 'Content-Type']);
  const expected: Record<string, string> = {
    'on-deployed': 'healthy',
    'on-health-degraded': 'failed',
    'on-sync-failed': 'failed',
  };
  const subscribed = Object.keys(app.metadata.annotations)
    .map((k) => /^notifications\.argoproj\.io\/subscribe\.([^.]+)\.gitlab$/.exec(k)?.[1])
    .filter((t): t is string => Boolean(t));
  expect(subscribed.sort()).toEqual(Object.keys(expected).sort());
  for (const trigger of subscribed) {
    const [rule] = parseAllDocuments(cm.data[`trigger.${trigger}`])[0].toJS();
    const template = parseAllDocuments(cm.data[`template.${rule.send[0]}`])[0].toJS().webhook.gitlab;
    expect([template.method, template.path]).toEqual([
      'POST',
      expect.stringMatching(/^\/statuses\/\{\{\.app\.status\..*revision\}\}$/),
    ]);
    const body = JSON.parse(template.body.split('{{.app.metadata.name}}').join(app.metadata.name));
    // A fresh commit status per trigger: the latest per name is what rollgen reads.
    fake.statuses.clear();
    await post(fake.project.split('/').join('%2F'), body);
    expect([trigger, await verdict('health-argocd-rollgen.yaml')]).toEqual([trigger, expected[trigger]]);
  }
});
