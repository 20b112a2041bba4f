// Writes V8 code caches: dist/cli.cache for the bundle, dist/cache/*.cache for each chunk a render
// loads, after one real render, so functions used on a normal run are compiled into them too.
const fs = require('fs');
const path = require('path');
const { loadBundle, cacheOf } = require('../bin/load-bundle');

const { cli, scripts } = loadBundle();
const ctx = { cwd: path.join(__dirname, '..'), stdout: () => {}, stderr: () => {}, readStdin: async () => [] };
cli.main(['render', 'examples/kruise-nginx/echoserver', '--step', '2'], ctx).then((code) => {
  if (code !== 0) throw new Error(`warm-up render failed with exit ${code}`);
  fs.rmSync(path.join(__dirname, '..', 'dist', 'cache'), { recursive: true, force: true });
  for (const [file, script] of scripts) {
    const cache = cacheOf(file);
    fs.mkdirSync(path.dirname(cache), { recursive: true });
    fs.writeFileSync(cache, script.createCachedData());
  }
});
