// The yaml floor of a cold render: a process that does only the YAML work of `rollgen render` with
// the library rollgen uses, bundled and loaded the way rollgen is. It reads the app's YAML files,
// parses every document (parseAllDocuments, as rollgen does to keep line:col positions), turns each
// into plain data and prints it again from that data (rollgen prints the manifests it builds, not
// the parsed text). Its bundle is built like dist/cli.js (scripts/build.mjs: esbuild, yaml's ESM
// build, minified syntax) and loaded like bin/load-bundle.js does: read as latin1 and compiled with
// a V8 code cache written after a first run, so each side pays the same way for its start-up.
import { build } from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUNDLE_OPTIONS, YAML_AS_ESM } from '../scripts/chunks.mjs';

const ENTRY = `import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
export function run(dir) {
  let out = '';
  const names = fs.readdirSync(dir).filter((n) => /\\.ya?ml$/.test(n)).sort();
  for (const name of names)
    for (const doc of parseAllDocuments(fs.readFileSync(path.join(dir, name), 'utf8'))) {
      if (doc.errors.length > 0) throw doc.errors[0];
      out += '---\\n' + stringify(doc.toJS());
    }
  process.stdout.write(out);
}
`;

// The loader: the bundle through vm.Script with its code cache (written once, after a first run).
const LOADER = `'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const Module = require('module');
const file = path.join(__dirname, 'floor.js');
const cacheFile = path.join(__dirname, 'floor.cache');
let cachedData;
try { cachedData = fs.readFileSync(cacheFile); } catch { cachedData = undefined; }
const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'latin1')), { filename: file, cachedData });
const mod = { exports: {} };
script.runInThisContext().call(mod.exports, mod.exports, require, mod, file, __dirname);
mod.exports.run(process.argv[2]);
if (!cachedData) fs.writeFileSync(cacheFile, script.createCachedData());
`;

/** Writes the floor under `dir` and returns the path of the script to run with node (argument: the app directory). */
export async function writeYamlFloor(root, dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  await build({
    stdin: { contents: ENTRY, resolveDir: root, loader: 'js' },
    outfile: path.join(dir, 'floor.js'),
    ...BUNDLE_OPTIONS,
    charset: 'ascii',
    alias: YAML_AS_ESM,
  });
  const loader = path.join(dir, 'run.cjs');
  fs.writeFileSync(loader, LOADER);
  return loader;
}
