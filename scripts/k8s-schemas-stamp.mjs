// What the per-kind Kubernetes validators were compiled from, and what they are: written beside them
// by scripts/compile-k8s-schemas.mjs (k8s-stamp.json) and compared by test/spec/k8s-schemas.test.ts,
// so a changed model package, compiler or script, or a hand edit of the output, fails the tests
// without compiling them again (the TypeScript checker over the models takes ~10 s of CPU).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Packages whose version decides the output: the models (and the types they build on) and the compilers; their own dependencies count too. */
const PACKAGES = [
  'kubernetes-models',
  '@kubernetes-models/istio',
  '@kubernetes-models/gateway-api',
  '@kubernetes-models/apimachinery',
  '@kubernetes-models/base',
  'typescript',
  'ajv',
  'esbuild',
];
const SCRIPTS = ['scripts/compile-k8s-schemas.mjs', 'scripts/k8s-schemas-stamp.mjs'];
export const STAMP_FILE = 'k8s-stamp.json';

const manifest = (root, name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'));
const version = (root, name) => manifest(root, name).version;

/** PACKAGES and what each depends on directly (ajv's URI resolver): name -> version. */
function installed(root) {
  const out = {};
  for (const p of PACKAGES) {
    const m = manifest(root, p);
    out[p] = m.version;
    // Not optional ones: esbuild's binary is another package on each platform (at esbuild's version).
    for (const d of Object.keys(m.dependencies ?? {}).sort()) out[d] ??= version(root, d);
  }
  return out;
}

/** The stamp of the validators in `generatedDir` (k8s/*.js and k8s-kinds.ts) as the sources under `root` would make them. */
export function k8sStamp(root, generatedDir) {
  const packages = installed(root);
  const inputs = createHash('sha256');
  for (const [p, v] of Object.entries(packages)) inputs.update(`${p}@${v}\0`);
  for (const s of SCRIPTS)
    inputs
      .update(`${s}\0`)
      .update(readFileSync(join(root, s)))
      .update('\0');
  const outputs = createHash('sha256');
  const files = [
    ...readdirSync(join(generatedDir, 'k8s'))
      .sort()
      .map((f) => `k8s/${f}`),
    'k8s-kinds.ts',
  ];
  for (const f of files)
    outputs
      .update(`${f}\0`)
      .update(readFileSync(join(generatedDir, f)))
      .update('\0');
  return {
    packages,
    inputs: inputs.digest('hex'),
    outputs: outputs.digest('hex'),
  };
}
