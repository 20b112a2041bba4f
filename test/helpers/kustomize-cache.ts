import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/**
 * `kubectl kustomize` output by the content digest of the directory it built, shared by the jest
 * workers of one run (test/helpers/jest-global-setup.ts makes the directory, teardown removes it).
 * Many outputs of a test run are identical (a rerun that changes nothing, the same state reached
 * twice); kubectl then runs once. A directory whose kustomization mentions a parent path is not
 * cached: its build could read files outside what the digest covers.
 */
export const KUSTOMIZE_CACHE_ENV = 'ROLLGEN_TEST_KUSTOMIZE_CACHE';

export function cachedBuild(dir: string, build: () => string): string {
  const cacheDir = process.env[KUSTOMIZE_CACHE_ENV];
  const digest = cacheDir ? digestOf(dir) : undefined;
  if (!cacheDir || !digest) return build();
  const file = path.join(cacheDir, digest);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
  const out = build();
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, out);
  fs.renameSync(tmp, file);
  return out;
}

/**
 * Digest of the files kustomize can read in `dir`, or undefined when one may reach outside it. At
 * the top only the kustomization and the entries it names count (rollgen's status file, rewritten
 * at every step, is never a resource), so an output whose manifests did not change is built once.
 */
function digestOf(dir: string): string | undefined {
  const hash = createHash('sha256');
  const top = fs.readdirSync(dir).find((n) => KUSTOMIZATION.test(n));
  const named = top ? fs.readFileSync(path.join(dir, top), 'utf8') : undefined;
  const walk = (rel: string): boolean => {
    for (const entry of fs
      .readdirSync(path.join(dir, rel), { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const name = path.join(rel, entry.name);
      if (rel === '' && named !== undefined && !KUSTOMIZATION.test(entry.name) && !named.includes(entry.name)) continue;
      if (entry.isDirectory()) {
        if (!walk(name)) return false;
        continue;
      }
      const bytes = fs.readFileSync(path.join(dir, name));
      if (KUSTOMIZATION.test(entry.name) && bytes.includes('..')) return false;
      hash.update(`${name}\0${bytes.length}\0`).update(bytes);
    }
    return true;
  };
  return walk('') ? hash.digest('hex') : undefined;
}

const KUSTOMIZATION = /^kustomization\.ya?ml$|^Kustomization$/;
