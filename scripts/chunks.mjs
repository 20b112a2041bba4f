// How dist/ is split so a command loads only what it uses (issue 9 item 5). Measured on a cold start,
// the costs were: 400 KB of schema validators for every kind, Octokit, Handlebars and ajv's
// compiler in the one bundle, and child_process (with net and dgram) loaded by commander at start.
//
// - Validators: one file per schema id (dist/validators/<id>.js); src/spec/generated/index.ts requires
//   each on first use, so a run loads the kinds it meets.
// - Third-party libraries only some commands use are vendor chunks (dist/vendor/*.js). Only leaf
//   libraries are split off: a chunk never holds rollgen's own modules, so no class or state exists twice.
// - child_process, crypto, os, http, https and worker_threads are required on first use of one of their functions.
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const GENERATED = join(ROOT, 'src', 'spec', 'generated');

/** Bare imports served by a vendor chunk, and the chunk's source. */
const VENDOR = {
  '@octokit/rest': 'octokit',
  '@octokit/plugin-retry': 'octokit',
  '@octokit/plugin-throttling': 'octokit',
  handlebars: 'handlebars',
  ajv: 'ajv',
  '@aws-sdk/client-cloudwatch': 'aws',
  '@aws-sdk/client-elastic-load-balancing-v2': 'aws',
  '@smithy/signature-v4': 'aws',
  '@aws-sdk/credential-provider-node': 'aws',
  '@aws-sdk/credential-providers': 'aws',
  '@influxdata/influxdb-client': 'influxdb',
};
const VENDOR_SOURCES = {
  octokit: 'octokit.mjs',
  handlebars: 'handlebars.cjs',
  ajv: 'ajv.cjs',
  aws: 'aws.cjs',
  influxdb: 'influxdb.cjs',
};

/**
 * Vendor chunks only a metric provider's measurement (or an AWS verification) loads (the AWS SDK, InfluxData's client): the
 * Action bundle keeps them out of action/dist/index.js too, beside it in action/dist/vendor/.
 */
export const MEASUREMENT_CHUNKS = ['aws', 'influxdb'];

/** Bare imports served by one of MEASUREMENT_CHUNKS -> the chunk. */
export const measurementVendor = () =>
  Object.fromEntries(Object.entries(VENDOR).filter(([, chunk]) => MEASUREMENT_CHUNKS.includes(chunk)));

/** The source file of a chunk (scripts/chunks/<file>). */
export const chunkSource = (chunk) => join(ROOT, 'scripts', 'chunks', VENDOR_SOURCES[chunk]);

/** Entry points of every chunk, keyed by output path under dist/ (without .js). */
export function chunkEntries() {
  const entries = {};
  for (const [name, file] of Object.entries(VENDOR_SOURCES))
    entries[`vendor/${name}`] = join(ROOT, 'scripts', 'chunks', file);
  for (const f of readdirSync(GENERATED).filter((n) => n.endsWith('.js')))
    entries[`validators/${f.slice(0, -3)}`] = join(GENERATED, f);
  return entries;
}

/** In dist/cli.js: imports of a chunk become a require of its file, next to the bundle. */
export function chunksPlugin() {
  return {
    name: 'rollgen-chunks',
    setup(b) {
      const bare = new RegExp(
        `^(${Object.keys(VENDOR)
          .map((k) => k.replace(/[/]/g, '\\/'))
          .join('|')})$`,
      );
      b.onResolve({ filter: bare }, (args) => ({ path: `./vendor/${VENDOR[args.path]}.js`, external: true }));
      b.onResolve({ filter: /^\.\/[a-z0-9-]+\.js$/ }, (args) =>
        resolve(args.resolveDir) === GENERATED
          ? { path: `./validators/${args.path.slice(2)}`, external: true }
          : undefined,
      );
    },
  };
}

/** Built-ins some commands need that cost milliseconds to load: each export is a getter that requires it on first use. */
const LAZY_BUILTINS = {
  child_process: ['ChildProcess', 'exec', 'execFile', 'execFileSync', 'execSync', 'fork', 'spawn', 'spawnSync'],
  crypto: ['createHash', 'createHmac', 'randomBytes', 'randomUUID'],
  os: ['availableParallelism', 'homedir', 'hostname', 'tmpdir'],
  // The YAML worker (src/io/yaml-worker.ts) starts only for many apps.
  worker_threads: ['Worker'],
  // Prometheus and web metric providers (src/io/metrics): only `rollgen analyze` talks HTTP.
  http: ['request', 'get', 'Agent'],
  https: ['request', 'get', 'Agent'],
};

/** child_process (and net, dgram with it), crypto, os, http and https load on the first call of one of their functions, not at start. */
export function lazyBuiltinsPlugin() {
  return {
    name: 'rollgen-lazy-builtins',
    setup(b) {
      b.onResolve({ filter: /^(node:)?(child_process|crypto|os|http|https|worker_threads)$/ }, (args) => {
        const name = args.path.replace(/^node:/, '');
        return args.namespace === 'lazy-builtin'
          ? { path: `node:${name}`, external: true }
          : { path: name, namespace: 'lazy-builtin' };
      });
      b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
        // Getters, not a Proxy: esbuild's interop reads `__esModule` and copies own keys, which must not load it.
        contents: `for (const name of ${JSON.stringify(LAZY_BUILTINS[args.path])})
  Object.defineProperty(module.exports, name, { enumerable: true, get: () => require('node:${args.path}')[name] });`,
        loader: 'js',
      }));
    },
  };
}

/**
 * yaml as ES modules (the package's browser build: the same code as its CommonJS build). esbuild
 * hoists them into the bundle's scope instead of ~90 CommonJS wrappers each called at first use, and
 * drops what rollgen never calls: 3% of a cold render. The builds differ only where rollgen does not
 * go: `!!binary` (YAML 1.1 schema; Buffer there, atob here) and warnings (process.emitWarning there,
 * console.warn here; rollgen parses with logLevel 'error').
 */
/** esbuild options of every file the CLI loads (scripts/build.mjs; bench/yaml-floor.mjs builds its floor the same way). */
export const BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  legalComments: 'none',
  // Smaller source to read at every start; names are kept so stack traces (--debug) stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
};

export const YAML_AS_ESM = { yaml: './node_modules/yaml/browser/dist/index.js' };
