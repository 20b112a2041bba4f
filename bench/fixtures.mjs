// Generated inputs for bench/run.mjs, all under bench/.work/ (rebuilt on every run; see bench/README.md).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WORK = path.join(ROOT, 'bench', '.work');
const require = createRequire(path.join(ROOT, 'package.json'));
const YAML = require('yaml');

/** Source apps the bench copies: the two examples and an Alibaba ALB golden case (header + weight canaries). */
export const TEMPLATES = {
  'kruise-nginx': path.join(ROOT, 'examples', 'kruise-nginx', 'echoserver'),
  'argo-nginx': path.join(ROOT, 'examples', 'argo-nginx', 'echoserver'),
  'aliyun-alb': path.join(ROOT, 'test', 'golden', 'aliyun-alb', 'header-weight', 'source'),
};
const RENAMED_KINDS = ['Deployment', 'Service', 'Ingress', 'Rollout'];
const ALB_ORDER = 'alb.ingress.kubernetes.io/order';

export const CONFIG = 'apps:\n  - source: apps/*\n    output: deploy/{name}\n';

/** The YAML files of a template app, parsed once. */
export function readTemplate(dir) {
  const files = fs
    .readdirSync(dir)
    .filter((n) => /\.ya?ml$/.test(n))
    .sort()
    .map((name) => ({ name, text: fs.readFileSync(path.join(dir, name), 'utf8') }));
  const names = new Set();
  const hosts = new Set();
  for (const f of files) {
    for (const doc of YAML.parseAllDocuments(f.text)) {
      const o = doc.toJS();
      f.kinds = [...(f.kinds ?? []), o?.kind];
      if (!o || !RENAMED_KINDS.includes(o.kind)) continue;
      names.add(o.metadata?.name);
      if (o.kind === 'Ingress') {
        for (const r of o.spec?.rules ?? []) if (r.host) hosts.add(r.host);
        for (const t of o.spec?.tls ?? []) for (const h of t.hosts ?? []) hosts.add(h);
      }
    }
  }
  return { dir, files, names, hosts };
}

/**
 * One copy of a template under `dir` with its own names: every scalar equal to a Deployment,
 * Service, Ingress or Rollout name gets `-suffix` (references stay consistent), every Ingress host
 * gets it on its first label. `albOrder` sets the stable Ingress's ALB order, so many ALB apps on
 * one listener each leave two free orders below their own.
 */
export function writeApp(template, dir, suffix, albOrder) {
  fs.mkdirSync(dir, { recursive: true });
  for (const f of template.files) {
    const docs = YAML.parseAllDocuments(f.text).map((doc) => {
      YAML.visit(doc, {
        Scalar(_key, node) {
          if (typeof node.value !== 'string') return;
          if (template.names.has(node.value)) node.value = `${node.value}-${suffix}`;
          else if (template.hosts.has(node.value))
            node.value = node.value.replace(/^[^.]+/, (label) => `${label}-${suffix}`);
        },
      });
      if (albOrder !== undefined && doc.get('kind') === 'Ingress')
        doc.setIn(['metadata', 'annotations', ALB_ORDER], String(albOrder));
      return String(doc);
    });
    fs.writeFileSync(path.join(dir, f.name), docs.join(''));
  }
}

/**
 * A rollgen.yaml repo of `count` apps (apps/app-NNNN, outputs deploy/app-NNNN), cycling through
 * `kinds` (keys of TEMPLATES). ALB apps share one listener, the i-th ALB app at order 3(i+1).
 */
export function writeConfigRepo(name, count, kinds) {
  const repo = path.join(WORK, name);
  fs.rmSync(repo, { recursive: true, force: true });
  fs.mkdirSync(path.join(repo, 'apps'), { recursive: true });
  fs.writeFileSync(path.join(repo, 'rollgen.yaml'), CONFIG);
  const templates = kinds.map((k) => readTemplate(TEMPLATES[k]));
  let alb = 0;
  for (let i = 0; i < count; i++) {
    const suffix = String(i).padStart(4, '0');
    const k = i % kinds.length;
    const order = kinds[k] === 'aliyun-alb' ? 3 * ++alb : undefined;
    writeApp(templates[k], path.join(repo, 'apps', `app-${suffix}`), suffix, order);
  }
  return repo;
}

/** The plain directories of `writeConfigRepo`'s apps, for loops that name each app's source. */
export const appDirs = (repo) =>
  fs
    .readdirSync(path.join(repo, 'apps'))
    .sort()
    .map((n) => path.join(repo, 'apps', n));
