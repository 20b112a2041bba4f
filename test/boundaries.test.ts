/**
 * Architecture rules, checked on the source text:
 * - the pure core (spec, plan, render, state, simulate, yaml, model) and the generators do no I/O,
 *   read no environment, clock or randomness;
 * - generators never reach into the CLI layer (src/run, src/io).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(__dirname, '..');
const PURE_DIRS = [
  'src/spec',
  'src/plan',
  'src/render',
  'src/state',
  'src/simulate',
  'src/yaml',
  'src/model',
  'generators',
];
const BANNED_MODULES = ['fs', 'child_process', 'http', 'https', 'net'];
const BANNED_REFERENCES: readonly [string, RegExp][] = [
  ['process.env', /\bprocess\s*\.\s*env\b/],
  ['Date.now', /\bDate\s*\.\s*now\b/],
  ['new Date(', /\bnew\s+Date\s*\(/],
  ['Math.random', /\bMath\s*\.\s*random\b/],
];

function tsFiles(dir: string): string[] {
  const abs = join(ROOT, dir);
  const out: string[] = [];
  for (const name of readdirSync(abs)) {
    const path = join(abs, name);
    if (statSync(path).isDirectory()) out.push(...tsFiles(join(dir, name)));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** Source without comments; string and template literals are kept (so import specifiers survive). */
export function stripComments(src: string): string {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    const next = src[i + 1];
    if (c === '/' && next === '/') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end < 0 ? src.length : end + 2;
      out += src.slice(i, stop).replace(/[^\n]/g, ' '); // keep line numbers
      i = stop;
    } else if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      out += src.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Every module specifier: static imports/exports (incl. `import type`), side-effect imports, import(), require(). */
export function moduleSpecifiers(src: string): string[] {
  const code = stripComments(src);
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const p of patterns) for (const m of code.matchAll(p)) found.push(m[1]);
  return found;
}

export function bannedModule(specifier: string): string | undefined {
  const bare = specifier.replace(/^node:/, '');
  if (bare.startsWith('@octokit/')) return '@octokit/*';
  const base = bare.split('/')[0];
  return BANNED_MODULES.includes(base) ? base : undefined;
}

export function bannedReferences(src: string): string[] {
  const code = stripComments(src);
  return BANNED_REFERENCES.filter(([, re]) => re.test(code)).map(([name]) => name);
}

const rel = (abs: string) => relative(ROOT, abs).split(sep).join('/');

describe('boundaries: the scanner itself', () => {
  test('GIVEN sample sources WHEN scanned THEN every import form and banned reference is detected, comments are not', () => {
    const sample = `import { readFileSync } from 'node:fs';
import type { X } from "fs/promises";
import * as cp from 'child_process';
export { get } from 'https';
import 'net';
const h = require('http');
const o = await import('@octokit/rest');
import { ok } from './ok';
// import { no } from 'fs'; Date.now()
/* process.env.X and Math.random() */
const t = new Date(0);
const r = Math.random();
const e = process.env.HOME;
const n = Date.now();`;
    expect(moduleSpecifiers(sample)).toEqual(
      expect.arrayContaining([
        'node:fs',
        'fs/promises',
        'child_process',
        'https',
        'net',
        'http',
        '@octokit/rest',
        './ok',
      ]),
    );
    expect(moduleSpecifiers(sample)).toHaveLength(8);
    expect(moduleSpecifiers(sample).map(bannedModule).filter(Boolean)).toEqual(
      expect.arrayContaining(['fs', 'child_process', 'https', 'net', 'http', '@octokit/*']),
    );
    expect(bannedModule('./fs-like')).toBeUndefined();
    expect(bannedModule('yaml')).toBeUndefined();
    expect(bannedModule('network-utils')).toBeUndefined();
    expect(bannedReferences(sample)).toEqual(['process.env', 'Date.now', 'new Date(', 'Math.random']);
    expect(bannedReferences('// Date.now() is not used\nconst x = 1; /* new Date( */')).toEqual([]);
  });
});

describe('boundaries: pure core and generators', () => {
  const files = PURE_DIRS.flatMap(tsFiles);

  test('GIVEN the pure directories WHEN listed THEN they hold the expected modules (the scan is not vacuous)', () => {
    const names = files.map(rel);
    expect(names).toEqual(
      expect.arrayContaining([
        'src/plan/plan.ts',
        'src/spec/kruise.ts',
        'src/yaml/parse.ts',
        'generators/ingress-nginx/index.ts',
      ]),
    );
    expect(files.length).toBeGreaterThan(20);
  });

  test('GIVEN every scanned file WHEN its single-line import statements are counted THEN the scanner finds at least that many specifiers', () => {
    const undercounted = files.filter((f) => {
      const text = readFileSync(f, 'utf8');
      const lines = text.split('\n').filter((l) => /^(import|export)\b.*\bfrom\s*['"]/.test(l)).length;
      return moduleSpecifiers(text).length < lines;
    });
    expect(undercounted.map(rel)).toEqual([]);
  });

  test('GIVEN every .ts file of the pure core and generators WHEN its imports are read THEN none is fs, child_process, http, https, net or @octokit/*', () => {
    const violations = files.flatMap((f) =>
      moduleSpecifiers(readFileSync(f, 'utf8'))
        .filter((s) => bannedModule(s) !== undefined)
        .map((s) => `${rel(f)} imports ${s}`),
    );
    expect(violations).toEqual([]);
  });

  test('GIVEN every .ts file of the pure core and generators WHEN its code is read THEN it references no process.env, Date.now, new Date( or Math.random', () => {
    const violations = files.flatMap((f) =>
      bannedReferences(readFileSync(f, 'utf8')).map((r) => `${rel(f)} uses ${r}`),
    );
    expect(violations).toEqual([]);
  });

  test('GIVEN every generator file WHEN its relative imports are resolved THEN none points into src/run or src/io', () => {
    const forbidden = ['src/run', 'src/io'].map((d) => join(ROOT, d));
    const violations = tsFiles('generators').flatMap((f) =>
      moduleSpecifiers(readFileSync(f, 'utf8'))
        .filter((s) => s.startsWith('.'))
        .map((s) => resolve(dirname(f), s))
        .filter((target) => forbidden.some((d) => target === d || target.startsWith(d + sep)))
        .map((target) => `${rel(f)} imports ${rel(target)}`),
    );
    expect(violations).toEqual([]);
  });
});
