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
  moveToTrash(repo);
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

const TRASH = path.join(WORK, 'trash');
let trashed = 0;

/**
 * Moves `p` (if it exists) into bench/.work/trash instead of deleting it: ext4 without a journal
 * (this disk) skips every inode freed in the last 60 s when it allocates one, or in the last 6
 * minutes where its inode table block is dirty (as it is while files are being created), checking
 * each in turn (`recently_deleted()` in fs/ext4/ialloc.c). Deleting thousands of files makes every
 * file created in the next minutes slower, by how much was deleted. A rename frees no inode.
 */
export function moveToTrash(p) {
  if (!fs.existsSync(p)) return;
  fs.mkdirSync(TRASH, { recursive: true });
  fs.renameSync(p, path.join(TRASH, `${process.pid}-${trashed++}`));
}

/** Deletes what `moveToTrash` kept: once, after the last timed run. Notes when, for `awaitQuietDisk`. */
export function emptyTrash() {
  if (!fs.existsSync(TRASH)) return;
  fs.rmSync(TRASH, { recursive: true, force: true });
  fs.writeFileSync(EMPTIED, String(Date.now()));
}

const EMPTIED = path.join(WORK, 'trash-emptied');
/** How long ext4 may skip a freed inode (RECENTCY_MIN + RECENTCY_DIRTY in fs/ext4/ialloc.c), and a margin. */
const RECENTCY_MS = 370_000;

/** Before the rows that create files: waits until the previous bench's deletions (emptyTrash) no longer slow them. */
export async function awaitQuietDisk(log) {
  const emptied = fs.existsSync(EMPTIED) ? Number(fs.readFileSync(EMPTIED, 'utf8')) : 0;
  const wait = emptied + RECENTCY_MS - Date.now();
  if (!(wait > 0)) return;
  log(
    `waiting ${Math.ceil(wait / 1000)} s: the previous bench deleted its files less than 6 minutes ago (bench/README.md)`,
  );
  await new Promise((resolve) => setTimeout(resolve, wait));
}

/** The plain directories of `writeConfigRepo`'s apps, for loops that name each app's source. */
export const appDirs = (repo) =>
  fs
    .readdirSync(path.join(repo, 'apps'))
    .sort()
    .map((n) => path.join(repo, 'apps', n));
