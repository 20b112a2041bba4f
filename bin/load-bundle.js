'use strict';
// Loads dist/cli.js through vm.Script with a V8 code cache, so a cold start skips most parsing
// and compiling of the bundle (Node 20 has no module.enableCompileCache). A rejected or missing
// cache only costs speed.
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const Module = require('module');

const BUNDLE = path.join(__dirname, '..', 'dist', 'cli.js');
const CACHE = path.join(__dirname, '..', 'dist', 'cli.cache');

function loadBundle() {
  const code = fs.readFileSync(BUNDLE, 'utf8');
  let cachedData;
  try {
    cachedData = fs.readFileSync(CACHE);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(code), { filename: BUNDLE, cachedData });
  const mod = { exports: {} };
  script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(BUNDLE), mod, BUNDLE, path.dirname(BUNDLE));
  return { cli: mod.exports, script };
}

module.exports = { loadBundle, BUNDLE, CACHE };
