import * as fs from 'fs';
import * as path from 'path';
import { parseDocument, isSeq, isScalar, LineCounter } from 'yaml';
import { Diagnostic } from '../diagnostics';
import type { SourceFile } from './read-source';

const KUSTOMIZATION_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const MAX_DEPTH = 10;

export function kustomizationIn(dir: string): string | undefined {
  return KUSTOMIZATION_NAMES.map((n) => path.join(dir, n)).find((p) => fs.existsSync(p));
}

/**
 * rollgen's own check before kustomize runs: every kustomization the source reaches (overlays over
 * `../base` included) stays inside the repo, remote bases are refused, and files are loaded only from
 * below their kustomization (kustomize's default load restrictor, said at the line). Returns the
 * manifest files it lists, so built objects can point back at their lines.
 */
export function walkKustomization(dir: string, root: string, cwd: string, out: Diagnostic[], depth = 0): SourceFile[] {
  const file = kustomizationIn(dir);
  if (!file) return [];
  if (depth > MAX_DEPTH) {
    out.push({
      file: shown(file, cwd),
      line: 1,
      col: 1,
      severity: 'error',
      message: 'kustomizations nest more than 10 levels deep',
    });
    return [];
  }
  const realRoot = fs.realpathSync(root);
  return entries(file).flatMap(({ value, line, col }) => {
    const at = { file: shown(file, cwd), line, col, severity: 'error' as const };
    const target = path.resolve(dir, value);
    if (/^[a-z][a-z0-9+.-]*:\/\/|^git@|\?ref=|^(github|gitlab|bitbucket)\.(com|org)\//i.test(value)) {
      out.push({
        ...at,
        message: `resource "${value}" is remote; rollgen builds only what the repo holds, so vendor it into the repo`,
      });
      return [];
    }
    if (!fs.existsSync(target)) {
      out.push({ ...at, message: `resource "${value}" does not exist` });
      return [];
    }
    const real = fs.realpathSync(target);
    if (!inside(real, realRoot)) {
      out.push({
        ...at,
        message: `resource "${value}" is outside the repository (${shown(root, cwd) || '.'}); rollgen reads only files inside it`,
      });
      return [];
    }
    if (fs.statSync(real).isDirectory()) {
      if (real === fs.realpathSync(dir)) {
        out.push({
          ...at,
          message: `resource "${value}" includes itself (a kustomization that lists it); remove the entry`,
        });
        return [];
      }
      return walkKustomization(target, root, cwd, out, depth + 1);
    }
    if (!inside(real, fs.realpathSync(dir))) {
      out.push({
        ...at,
        message: `resource "${value}" is outside the app directory: kustomize loads files only from below their kustomization; list the directory of another kustomization (e.g. ../base) instead`,
      });
      return [];
    }
    return [{ path: shown(target, cwd), text: fs.readFileSync(target, 'utf8') }];
  });
}

/** `resources:`, `bases:` and `components:` entries with their positions. */
function entries(file: string): { value: string; line: number; col: number }[] {
  const lc = new LineCounter();
  const doc = parseDocument(fs.readFileSync(file, 'utf8'), { lineCounter: lc });
  return ['resources', 'bases', 'components'].flatMap((key) => {
    const seq = doc.get(key, true);
    if (!isSeq(seq)) return [];
    return seq.items.filter(isScalar).map((item) => ({
      value: String(item.value),
      ...(item.range ? lc.linePos(item.range[0]) : { line: 1, col: 1 }),
    }));
  });
}

const shown = (p: string, cwd: string): string => path.relative(cwd, p) || p;

function inside(target: string, root: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
