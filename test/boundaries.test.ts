/**
 * Architecture rules, checked on the source text:
 * - the layer table below: every relative import of src/, generators/ and action/src points into
 *   its own layer or one the table lets it use, and directories import each other in one direction only;
 * - the pure core (spec, plan, render, state, simulate, yaml, model, contract) and the generators do
 *   no I/O, read no environment, clock or randomness.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(__dirname, '..');
const PURE_DIRS = [
  'src/analysis',
  'src/contract',
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
});

/**
 * The floor plan, lowest first. A layer imports itself and the layers in its `uses`; in an
 * `isolated` layer each directory (a provider, a command family) imports only itself, so
 * src/run and src/flow share through the app layer, and one provider never reaches into another.
 */
export const LAYERS: Readonly<Record<string, { paths: readonly string[]; uses: readonly string[]; isolated?: true }>> =
  {
    // package.json: plain data (the version), inlined into the bundle at build time.
    base: {
      paths: ['src/diagnostics.ts', 'src/errors.ts', 'src/suggest.ts', 'src/model', 'src/yaml', 'package.json'],
      uses: [],
    },
    contract: { paths: ['src/contract'], uses: ['base'] },
    kit: { paths: ['generators/_kit'], uses: ['contract', 'base'] },
    generators: { paths: ['generators'], uses: ['kit', 'contract', 'base'], isolated: true },
    core: {
      paths: ['src/spec', 'src/plan', 'src/render', 'src/state', 'src/simulate', 'src/analysis'],
      uses: ['contract', 'base'],
    },
    edges: { paths: ['src/io', 'src/scm'], uses: ['core', 'contract', 'base'] },
    registry: { paths: ['generators/registry.ts'], uses: ['generators', 'kit', 'contract', 'base'] },
    app: { paths: ['src/app'], uses: ['registry', 'generators', 'edges', 'core', 'contract', 'base'] },
    commands: { paths: ['src/run', 'src/flow'], uses: ['app', 'edges', 'core', 'contract', 'base'], isolated: true },
    shells: {
      paths: ['src/cli.ts', 'src/completion.ts', 'src/dispatch.ts', 'src/option-checks.ts', 'action/src'],
      uses: ['commands', 'app', 'core', 'contract', 'base'],
    },
  };

/** Imports across an isolated layer that are allowed, and why. */
const ALLOWED_ACROSS: readonly [string, string, string][] = [
  ['generators/mse', 'generators/higress', 'MSE is a flavour of the Higress implementation (higress/flavour.ts)'],
];

/** The directory (or top-level file) a path belongs to: the unit of the direction and cycle checks. */
export function unitOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] === 'action') return 'action/src';
  return parts.length > 2 ? parts.slice(0, 2).join('/') : path;
}

export function layerOf(path: string): string | undefined {
  const owners = Object.entries(LAYERS).flatMap(([name, l]) =>
    l.paths.filter((p) => path === p || path.startsWith(p + '/')).map((p) => ({ name, length: p.length })),
  );
  return owners.sort((a, b) => b.length - a.length)[0]?.name;
}

export interface ImportEdge {
  readonly from: string;
  readonly to: string;
}

/** Imports the layer table forbids, as "from -> to (layer -> layer)". */
export function layerViolations(edges: readonly ImportEdge[]): string[] {
  return edges.flatMap(({ from, to }) => {
    const [a, b] = [layerOf(from), layerOf(to)];
    if (!a || !b) return [`${from} -> ${to}: outside the layer table`];
    const [ua, ub] = [unitOf(from), unitOf(to)];
    const allowed =
      a === b
        ? !LAYERS[a].isolated || ua === ub || ALLOWED_ACROSS.some(([x, y]) => x === ua && y === ub)
        : LAYERS[a].uses.includes(b);
    return allowed ? [] : [`${from} -> ${to} (${a} -> ${b})`];
  });
}

/** Cycles between units (directories): each reported once, as "a -> b -> a". */
export function unitCycles(edges: readonly ImportEdge[]): string[] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const [a, b] = [unitOf(from), unitOf(to)];
    if (a !== b) next.set(a, (next.get(a) ?? new Set()).add(b));
  }
  const cycles = new Set<string>();
  const walk = (unit: string, path: string[]): void => {
    const at = path.indexOf(unit);
    if (at >= 0) {
      const loop = path.slice(at);
      const start = loop.indexOf([...loop].sort()[0]);
      const canonical = [...loop.slice(start), ...loop.slice(0, start)];
      cycles.add([...canonical, canonical[0]].join(' -> '));
      return;
    }
    for (const n of next.get(unit) ?? []) walk(n, [...path, unit]);
  };
  for (const unit of next.keys()) walk(unit, []);
  return [...cycles].sort();
}

/** Every relative import of every .ts file under src/, generators/ and action/src, resolved to a file. */
function importEdges(): ImportEdge[] {
  const files = ['src', 'generators', 'action/src'].flatMap(tsFiles);
  return files.flatMap((f) =>
    moduleSpecifiers(readFileSync(f, 'utf8'))
      .filter((s) => s.startsWith('.'))
      .map((s) => ({ from: rel(f), to: rel(resolveModule(resolve(dirname(f), s))) })),
  );
}

function resolveModule(target: string): string {
  for (const candidate of [target, `${target}.ts`, `${target}.d.ts`, join(target, 'index.ts')])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  throw new Error(`unresolved import ${target}`);
}

describe('boundaries: the layer checks themselves', () => {
  test('GIVEN imports that break the table WHEN checked THEN each is reported; allowed ones are not', () => {
    expect(
      layerViolations([
        { from: 'src/plan/plan.ts', to: 'generators/istio/index.ts' },
        { from: 'src/plan/plan.ts', to: 'generators/registry.ts' },
        { from: 'src/run/advance-command.ts', to: 'src/flow/local-commit.ts' },
        { from: 'generators/aws-alb/ingress.ts', to: 'generators/ingress-nginx/options.ts' },
        { from: 'generators/istio/render.ts', to: 'src/render/track.ts' },
        { from: 'src/model/kube.ts', to: 'src/contract/generator.ts' },
        { from: 'src/spec/a.ts', to: 'src/app/load-app.ts' },
        { from: 'src/cli.ts', to: 'src/io/read-source.ts' },
      ]),
    ).toEqual([
      'src/plan/plan.ts -> generators/istio/index.ts (core -> generators)',
      'src/plan/plan.ts -> generators/registry.ts (core -> registry)',
      'src/run/advance-command.ts -> src/flow/local-commit.ts (commands -> commands)',
      'generators/aws-alb/ingress.ts -> generators/ingress-nginx/options.ts (generators -> generators)',
      'generators/istio/render.ts -> src/render/track.ts (generators -> core)',
      'src/model/kube.ts -> src/contract/generator.ts (base -> contract)',
      'src/spec/a.ts -> src/app/load-app.ts (core -> app)',
      'src/cli.ts -> src/io/read-source.ts (shells -> edges)',
    ]);
    expect(
      layerViolations([
        { from: 'generators/aws-alb/ingress.ts', to: 'generators/_kit/ingress.ts' },
        { from: 'generators/aws-alb/ingress.ts', to: 'generators/aws-alb/options.ts' },
        { from: 'generators/mse/index.ts', to: 'generators/higress/generator.ts' },
        { from: 'src/render/render-app.ts', to: 'src/spec/loaded-app.ts' },
        { from: 'src/flow/session.ts', to: 'src/app/load-repo.ts' },
        { from: 'action/src/main.ts', to: 'src/cli.ts' },
      ]),
    ).toEqual([]);
  });

  test('GIVEN directories importing each other WHEN checked THEN the cycle is reported once', () => {
    expect(
      unitCycles([
        { from: 'src/spec/a.ts', to: 'src/plan/b.ts' },
        { from: 'src/plan/c.ts', to: 'src/render/d.ts' },
        { from: 'src/render/e.ts', to: 'src/spec/f.ts' },
        { from: 'src/state/g.ts', to: 'src/render/h.ts' },
      ]),
    ).toEqual(['src/plan -> src/render -> src/spec -> src/plan']);
    expect(unitCycles([{ from: 'src/state/g.ts', to: 'src/render/h.ts' }])).toEqual([]);
  });
});

describe('boundaries: the floor plan holds', () => {
  const edges = importEdges();

  test('GIVEN every relative import WHEN resolved THEN the scan sees every layer', () => {
    const layers = new Set(edges.flatMap((e) => [layerOf(e.from), layerOf(e.to)]));
    expect([...layers].sort()).toEqual(Object.keys(LAYERS).sort());
  });

  test('GIVEN every relative import WHEN checked against the layer table THEN each points to its own or a lower layer', () => {
    expect(layerViolations(edges)).toEqual([]);
  });

  test('GIVEN the directories WHEN their imports are followed THEN no two import each other, directly or around a loop', () => {
    expect(unitCycles(edges)).toEqual([]);
  });
});
