import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { makeAlbRepo } from '../helpers/alb-repo';
import { runCli } from '../helpers/cli';

/**
 * ALB orders are allocated per cluster listener (docs/fleet.md): two targets in one cluster share
 * the listener's orders; in two clusters each has the listener to itself.
 */
function shopRepo(clusterOfB: string): string {
  const repo = makeAlbRepo([{ name: 'a' }, { name: 'b' }]);
  fs.writeFileSync(
    path.join(repo, 'rollgen.yaml'),
    [
      'apps:',
      '  - name: shop',
      '    source: apps/{target}',
      '    output: deploy/{target}',
      '    targets:',
      '      - name: a',
      '        labels: {cluster: c1}',
      '      - name: b',
      `        labels: {cluster: ${clusterOfB}}`,
      '',
    ].join('\n'),
  );
  return repo;
}

/**
 * The order annotation of target b's canary Ingresses once `advance` of every app (every peer
 * loaded together) has started a canary in both targets.
 */
async function ordersOfB(repo: string): Promise<string[]> {
  for (let i = 0; i < 2; i++) expect((await runCli(['advance'], repo)).code).toBe(0); // adopt
  for (const t of ['a', 'b']) {
    const file = path.join(repo, 'apps', t, 'deployment.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/image: (\S+?):\S+/, 'image: $1:next'));
  }
  expect((await runCli(['advance'], repo)).code).toBe(0); // step 1 in both
  const out = path.join(repo, 'deploy', 'b');
  return fs
    .readdirSync(out)
    .flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(out, f), 'utf8')).map((d) => d.toJS()))
    .filter(
      (o: { kind?: string; metadata?: { name?: string } }) =>
        o?.kind === 'Ingress' && o.metadata?.name?.startsWith('b-canary'),
    )
    .map(
      (o: { metadata: { annotations: Record<string, string> } }) =>
        o.metadata.annotations['alb.ingress.kubernetes.io/order'],
    )
    .sort();
}

test('one cluster: the two targets share the listener, each with its own orders', async () => {
  const repo = shopRepo('c1');
  const plan = await runCli(['plan'], repo);
  expect(plan.code).toBe(0);
  expect(plan.stdout).toContain(
    [
      'cluster c1:',
      'ALB orders on listener HTTP:80 of IngressClass alb (lower first):',
      '     6  b-canary-header  canary of app shop-b',
    ].join('\n'),
  );
  expect(plan.stdout).not.toContain('cluster c2:');
  expect(await ordersOfB(repo)).toEqual(['7']);
  fs.rmSync(repo, { recursive: true, force: true });
});

test('two clusters: each target has its listener to itself', async () => {
  const repo = shopRepo('c2');
  const plan = await runCli(['plan'], repo);
  expect(plan.code).toBe(0);
  expect(plan.stdout).toContain(
    [
      'cluster c2:',
      'ALB orders on listener HTTP:80 of IngressClass alb (lower first):',
      '     8  b-canary-header  canary of app shop-b',
    ].join('\n'),
  );
  expect(await ordersOfB(repo)).toEqual(['9']);
  fs.rmSync(repo, { recursive: true, force: true });
});
