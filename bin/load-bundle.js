'use strict';
// Loads dist/cli.js through vm.Script with a V8 code cache, so a cold start skips most parsing
// and compiling of the bundle (Node 20 has no module.enableCompileCache). The chunks the bundle
// requires on first use (dist/validators, dist/vendor, dist/k8s; see scripts/chunks.mjs) load the same way,
// each with its own cache when the build wrote one, and without a module lookup. A rejected or
// missing cache only costs speed.
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const Module = require('module');

const DIST = path.join(__dirname, '..', 'dist');
const BUNDLE = path.join(DIST, 'cli.js');
const CACHE = path.join(DIST, 'cli.cache');
const K8S = path.join(DIST, 'k8s') + path.sep;
const CHUNK = /^\.\/(validators|vendor|k8s)\/[\w.-]+\.js$/;

/** Scripts compiled in this process, by file: build/warm-cache.cjs writes their caches. */
const scripts = new Map();
const chunks = new Map();

const cacheOf = (file) => (file === BUNDLE ? CACHE : path.join(DIST, 'cache', `${path.relative(DIST, file).replace(/[\\/]/g, '_')}.cache`));

function run(file, requireFn) {
  // The build checks that every file it writes is ASCII (scripts/build.mjs): latin1 makes V8's
  // one-byte string straight from the bytes, without decoding 800 KB of UTF-8 at every start.
  const code = fs.readFileSync(file, 'latin1');
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheOf(file));
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(code), { filename: file, cachedData });
  scripts.set(file, script);
  const mod = { exports: {} };
  script.runInThisContext().call(mod.exports, mod.exports, requireFn, mod, file, path.dirname(file));
  return mod.exports;
}

/** The bundle's `require`: chunks by path next to the bundle, anything else as usual. */
function bundleRequire() {
  const base = Module.createRequire(BUNDLE);
  const req = (id) => {
    // The Kubernetes validators are required by absolute path (src/io/validate-k8s.ts): named as chunks.
    const chunk = path.isAbsolute(id) && id.startsWith(K8S) ? `./${path.relative(DIST, id).split(path.sep).join('/')}` : id;
    if (!CHUNK.test(chunk)) return base(id);
    if (!chunks.has(chunk)) {
      const file = path.join(DIST, chunk);
      chunks.set(chunk, run(file, Module.createRequire(file)));
    }
    return chunks.get(chunk);
  };
  return Object.assign(req, { resolve: base.resolve, cache: base.cache, main: base.main });
}

function loadBundle() {
  const cli = run(BUNDLE, bundleRequire());
  return { cli, script: scripts.get(BUNDLE), scripts };
}

/** The chunks required so far in this process, in order (for tests). */
loadBundle.loaded = () => chunks.keys();

module.exports = { loadBundle, BUNDLE, CACHE, cacheOf };
