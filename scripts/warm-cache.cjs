// Writes V8 code caches after real renders, so the functions a normal run uses are compiled into
// them. dist/cli.cache for the bundle: once the README's example has rendered, as a directory and
// by name in a rollgen.yaml repository (what single-app commands run there), and no more: a bigger
// cache costs every start (the repository path costs a directory render 1-2% and saves a render in
// a repository 14%). dist/cache/*.cache for each chunk (validators of each kind, provider options)
// after every example has rendered, so the first run of any provider finds its validators compiled.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { loadBundle, cacheOf, BUNDLE } = require('../bin/load-bundle');

const ROOT = path.join(__dirname, '..');
const FIRST = 'examples/kruise-nginx/echoserver';
// Compiled afresh: loaded with the last build's caches, every function in them would be carried
// into the new ones, used or not, and the caches would grow from build to build.
fs.rmSync(path.join(ROOT, 'dist', 'cache'), { recursive: true, force: true });
fs.rmSync(cacheOf(BUNDLE), { force: true });
const { cli, scripts } = loadBundle();
const ctx = { cwd: ROOT, stdout: () => {}, stderr: () => {}, readStdin: async () => [] };

/** Every example app directory (examples/<provider>/<app>). */
const exampleApps = () =>
  fs
    .readdirSync(path.join(ROOT, 'examples'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      fs
        .readdirSync(path.join(ROOT, 'examples', d.name), { withFileTypes: true })
        .filter((a) => a.isDirectory())
        .map((a) => `examples/${d.name}/${a.name}`),
    )
    .filter((dir) => dir !== FIRST)
    .sort();

function write(file, data) {
  const cache = cacheOf(file);
  fs.mkdirSync(path.dirname(cache), { recursive: true });
  fs.writeFileSync(cache, data);
}

/** The same app by name, in a scratch repository with a rollgen.yaml: how single-app commands run in a real repo. */
async function renderInRepo() {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-warm-'));
  try {
    const repo = path.join(scratch, 'repo');
    fs.cpSync(path.join(ROOT, FIRST), path.join(repo, 'apps', 'echoserver'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'rollgen.yaml'), 'apps:\n  - source: apps/*\n    output: deploy/{name}\n');
    const env = { ...process.env, ROLLGEN_CACHE_DIR: path.join(scratch, 'cache') };
    const code = await cli.main(['render', 'echoserver', '--step', '2'], { ...ctx, cwd: repo, env });
    if (code !== 0) throw new Error(`warm-up render in a rollgen.yaml repository failed with exit ${code}`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function main() {
  const code = await cli.main(['render', FIRST, '--step', '2'], ctx);
  if (code !== 0) throw new Error(`warm-up render of ${FIRST} failed with exit ${code}`);
  await renderInRepo();
  const bundleCache = scripts.get(BUNDLE).createCachedData();
  // The other examples only warm the chunks; one that does not render here is the examples test's to report.
  for (const dir of exampleApps()) await cli.main(['render', dir, '--step', '1'], ctx);
  write(BUNDLE, bundleCache);
  for (const [file, script] of scripts) if (file !== BUNDLE) write(file, script.createCachedData());
}

main().catch((e) => {
  process.stderr.write(`${e.stack}\n`);
  process.exit(1);
});
