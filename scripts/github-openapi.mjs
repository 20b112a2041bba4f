// Regenerates test/github/fake/github-openapi.json, the part of GitHub's published REST
// description (@octokit/openapi's api.github.com.json) that the fake GitHub is checked against:
// the index of every operation GitHub documents (method and path -> operationId, so "the fake serves
// only real routes" stays a check against all of GitHub), and the full operations the fake serves
// with the components they reference, transitively. The package (385 MB unpacked) is no
// devDependency: this script fetches the one file with `npm pack`.
//
//   node scripts/github-openapi.mjs [--version X.Y.Z] [--from path/to/api.github.com.json]
//
// Without --version it keeps the version recorded in the extract; run the fake's tests after.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FAKE = join(ROOT, 'test', 'github', 'fake');
const OUT = join(FAKE, 'github-openapi.json');
const PACKAGE = '@octokit/openapi';
const FILE = 'generated/api.github.com.json';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const option = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

/** GitHub's description from `--from`, or from the package tarball of `version` (npm's cache serves repeats). */
function readDescription(version) {
  const from = option('--from');
  if (from) return readFileSync(from, 'utf8');
  const scratch = mkdtempSync(join(tmpdir(), 'github-openapi-'));
  try {
    const tarball = execFileSync('npm', ['pack', '--silent', `${PACKAGE}@${version}`, '--pack-destination', scratch], {
      encoding: 'utf8',
    }).trim();
    execFileSync('tar', ['-xzf', join(scratch, tarball), '-C', scratch, `package/${FILE}`]);
    return readFileSync(join(scratch, 'package', FILE), 'utf8');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The routes the fake serves, from its TypeScript source (bundled in memory). */
async function servedRoutes() {
  const out = await build({
    entryPoints: [join(FAKE, 'routes.ts')],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', out.outputFiles[0].text)(module, module.exports, () => ({}));
  return module.exports.ROUTES;
}

/** `#/components/<section>/<name>` refs anywhere in `node`. */
function refsIn(node, found = []) {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, found));
  else if (node && typeof node === 'object')
    for (const [key, value] of Object.entries(node))
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/')) found.push(value);
      else refsIn(value, found);
  return found;
}

/** The components reachable from `roots`, each section's entries in the description's order. */
function reachableComponents(spec, roots) {
  const seen = new Set();
  const queue = refsIn(roots);
  while (queue.length > 0) {
    const ref = queue.pop();
    if (seen.has(ref)) continue;
    seen.add(ref);
    const [section, name] = ref.slice('#/components/'.length).split('/');
    const target = spec.components[section]?.[name];
    if (target === undefined) throw new Error(`${ref} is not in the description`);
    queue.push(...refsIn(target));
  }
  const components = {};
  for (const [section, entries] of Object.entries(spec.components)) {
    const kept = Object.entries(entries).filter(([name]) => seen.has(`#/components/${section}/${name}`));
    if (kept.length > 0) components[section] = Object.fromEntries(kept);
  }
  return components;
}

const previous = existsSync(OUT) ? JSON.parse(readFileSync(OUT, 'utf8')) : undefined;
const version = option('--version') ?? previous?.version;
if (!version) throw new Error('no version: pass --version X.Y.Z');
const spec = JSON.parse(readDescription(version));
const operations = {};
for (const [path, item] of Object.entries(spec.paths))
  for (const method of METHODS) if (item[method]) (operations[path] ??= {})[method] = item[method].operationId;
const paths = {};
for (const route of await servedRoutes()) {
  const op = spec.paths[route.path]?.[route.method.toLowerCase()];
  if (!op) throw new Error(`${route.method} ${route.path} is not in GitHub's description ${version}`);
  (paths[route.path] ??= {})[route.method.toLowerCase()] = op;
}
const extract = {
  generated: 'by scripts/github-openapi.mjs: do not edit',
  package: PACKAGE,
  version,
  file: FILE,
  operations,
  paths,
  components: reachableComponents(spec, paths),
};
writeFileSync(OUT, `${JSON.stringify(extract, null, 1)}\n`);
console.log(`${OUT}: ${Object.keys(paths).length} served paths of ${Object.keys(operations).length}`);
