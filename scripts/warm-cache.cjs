// Writes dist/cli.cache: V8 code for the bundle after one real render, so functions used on a
// normal run are compiled into the cache too.
const fs = require('fs');
const path = require('path');
const { loadBundle, CACHE } = require('../bin/load-bundle');

const { cli, script } = loadBundle();
const ctx = { cwd: path.join(__dirname, '..'), stdout: () => {}, stderr: () => {}, readStdin: async () => [] };
cli.main(['render', 'examples/kruise-nginx/echoserver', '--step', '2'], ctx).then((code) => {
  if (code !== 0) throw new Error(`warm-up render failed with exit ${code}`);
  fs.writeFileSync(CACHE, script.createCachedData());
});
