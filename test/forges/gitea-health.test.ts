/**
 * examples/health/gitea: what Flux's notification-controller (provider type `gitea`) and Argo CD
 * Notifications (a webhook to Gitea's statuses API) post, sent to the loopback Gitea as they send
 * it, read back by rollgen's Gitea client and judged by the rollgen.yaml beside the GitHub examples:
 * the contexts are the same on Gitea, so the same health gate holds, passes and fails the step.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { judgeHealth } from '../../src/flow/health';
import { readConfig } from '../../src/io/config';
import { createGiteaScm } from '../../src/scm/gitea';
import { GiteaServer } from './gitea-server';

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
const DIR = path.join(EXAMPLES, 'health', 'gitea');
const SHA = 'c0ffee'.padEnd(40, '0');
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests read as plain data
const docs = (file: string): any[] =>
  parseAllDocuments(fs.readFileSync(path.join(DIR, file), 'utf8')).map((d) => {
    expect(d.errors).toEqual([]);
    return d.toJS();
  });

let server: GiteaServer;
beforeEach(async () => (server = await GiteaServer.start({ repository: 'acme/deploy' })));
afterEach(async () => {
  expect(server.violations).toEqual([]);
  await server.close();
});

/** rollgen's view: the commit statuses through its Gitea client, judged by the example's rollgen.yaml. */
async function verdict(rollgenYaml: string): Promise<string> {
  const scm = createGiteaScm({ forge: 'gitea', token: server.token, repository: 'acme/deploy', apiUrl: server.apiUrl });
  const app = readConfig(path.join(EXAMPLES, rollgenYaml), EXAMPLES).apps[0];
  return judgeHealth(app.health!, [{ sha: SHA, statuses: await scm.commitStatuses(SHA), checkRuns: [] }]).state;
}

async function post(pathname: string, body: unknown, authorization: string): Promise<number> {
  const res = await fetch(`${server.apiUrl}${pathname}`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.status;
}

test('Flux: the gitea Provider posts kustomization/<name>/<uid block>: pending waits, success passes, failure fails', async () => {
  const all = docs('flux.yaml');
  const provider = all.find((d) => d.kind === 'Provider');
  const ks = all.find((d) => d.kind === 'Kustomization');
  const alert = all.find((d) => d.kind === 'Alert');
  expect(provider.spec.type).toBe('gitea');
  expect(alert.spec.providerRef.name).toBe(provider.metadata.name);
  expect(alert.spec.eventSources).toContainEqual({ kind: 'Kustomization', name: ks.metadata.name });
  // The notifier reads owner/name from the address's path and posts CreateStatusOption with the
  // default commit status id: `<kind>/<name>/<first block of the Provider UID>`, lower-cased.
  const [owner, repo] = new URL(provider.spec.address).pathname.split('/').filter(Boolean);
  const context =
    `kustomization/${ks.metadata.name}/${'6F2A1B3C-77d0-4c8e-9a3e-0c2b7f1e9d11'.split('-')[0]}`.toLowerCase();
  const send = (state: string, description: string) =>
    post(
      `/repos/${owner}/${repo}/statuses/${SHA}`,
      { state, target_url: '', description, context },
      `token ${server.token}`,
    );
  expect(await send('pending', 'progressing')).toBe(201);
  expect(await verdict('health-flux-rollgen.yaml')).toBe('waiting');
  expect(await send('success', 'reconciliation succeeded')).toBe(201);
  expect(await verdict('health-flux-rollgen.yaml')).toBe('healthy');
  expect(await send('failure', 'health check failed')).toBe(201);
  expect(await verdict('health-flux-rollgen.yaml')).toBe('failed');
});

test('Argo CD Notifications: each subscribed trigger sends the webhook to Gitea; continuous-delivery/<app> with the state rollgen reads', async () => {
  const all = docs('argocd.yaml');
  const cm = all.find((d) => d.kind === 'ConfigMap');
  const app = all.find((d) => d.kind === 'Application');
  const service = parseAllDocuments(cm.data['service.webhook.gitea'])[0].toJS();
  expect(service.url).toMatch(/\/api\/v1$/);
  const auth = service.headers.find((h: { name: string }) => h.name === 'Authorization').value;
  expect(auth).toBe('token $gitea-token');
  const expected: Record<string, string> = {
    'on-deployed': 'healthy',
    'on-health-degraded': 'failed',
    'on-sync-failed': 'failed',
  };
  const subscribed = Object.keys(app.metadata.annotations)
    .map((k) => /^notifications\.argoproj\.io\/subscribe\.([^.]+)\.gitea$/.exec(k)?.[1])
    .filter(Boolean) as string[];
  expect(subscribed.sort()).toEqual(Object.keys(expected).sort());
  // repo.FullNameByRepoURL: the first two segments of the repoURL's path, without .git.
  const fullName = new URL(app.spec.source.repoURL).pathname
    .replace(/\.git$/, '')
    .split('/')
    .filter(Boolean)
    .slice(0, 2)
    .join('/');
  const render = (text: string) =>
    text
      .replace('{{call .repo.FullNameByRepoURL .app.spec.source.repoURL}}', fullName)
      .replace(/\{\{\.app\.status\.[a-zA-Z.]+\.revision\}\}/, SHA)
      .replaceAll('{{.app.metadata.name}}', app.metadata.name);
  for (const trigger of subscribed) {
    const [rule] = parseAllDocuments(cm.data[`trigger.${trigger}`])[0].toJS();
    const hook = parseAllDocuments(cm.data[`template.${rule.send[0]}`])[0].toJS().webhook.gitea;
    expect(hook.method).toBe('POST');
    expect(
      await post(render(hook.path), JSON.parse(render(hook.body)), auth.replace('$gitea-token', server.token)),
    ).toBe(201);
    expect([trigger, await verdict('health-argocd-rollgen.yaml')]).toEqual([trigger, expected[trigger]]);
  }
});
