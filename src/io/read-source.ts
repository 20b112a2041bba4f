import * as fs from 'fs';
import * as path from 'path';
import { parseDocument, isSeq, isScalar, LineCounter } from 'yaml';
import { Diagnostic } from '../diagnostics';
import { InputError, IoError } from '../errors';

export interface SourceFile {
  /** Path shown in messages: relative to the working directory. */
  readonly path: string;
  readonly text: string;
  /** A built source (kustomize, `build:`): the files it came from, so objects point back at their lines. */
  readonly originals?: readonly SourceFile[];
}

const KUSTOMIZATION_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const NOT_MANIFESTS = new Set(['rollgen.yaml', 'rollgen-status.yaml']);

/** Reads an app directory: its kustomization's `resources:`, or else every *.yaml/*.yml in it. */
export function readAppSource(dir: string, cwd: string): SourceFile[] {
  const root = realDir(dir);
  const diagnostics: Diagnostic[] = [];
  const files = readDir(root, root, cwd, diagnostics, 0);
  if (diagnostics.length > 0) throw new InputError(diagnostics);
  return files;
}

function readDir(dir: string, root: string, cwd: string, out: Diagnostic[], depth: number): SourceFile[] {
  if (depth > 10) throw new IoError(dir, 'kustomization resources nest more than 10 levels deep');
  const kustomization = KUSTOMIZATION_NAMES.map((n) => path.join(dir, n)).find((p) => fs.existsSync(p));
  if (!kustomization) {
    const names = fs
      .readdirSync(dir)
      .filter((n) => /\.ya?ml$/.test(n) && !NOT_MANIFESTS.has(n))
      .sort();
    return names
      .map((n) => readInside(path.join(dir, n), root, cwd, out))
      .filter((f): f is SourceFile => f !== undefined);
  }
  return resourcesOf(kustomization, root, cwd, out).flatMap((entry) => {
    if (fs.statSync(entry).isDirectory()) return readDir(entry, root, cwd, out, depth + 1);
    const file = readInside(entry, root, cwd, out);
    return file ? [file] : [];
  });
}

/** The kustomization's `resources:` entries as absolute paths, each checked to stay inside the app directory. */
function resourcesOf(file: string, root: string, cwd: string, out: Diagnostic[]): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc });
  const shown = path.relative(cwd, file) || file;
  const seq = doc.get('resources', true);
  if (!isSeq(seq)) return [];
  const entries: string[] = [];
  for (const item of seq.items) {
    const pos = isScalar(item) && item.range ? lc.linePos(item.range[0]) : { line: 1, col: 1 };
    const value = isScalar(item) ? String(item.value) : '';
    const target = path.resolve(path.dirname(file), value);
    if (/^[a-z]+:\/\//i.test(value) || !isInside(target, root)) {
      out.push({
        file: shown,
        ...pos,
        message: `resource "${value}" is outside the app directory; rollgen reads only files inside it`,
        severity: 'error',
      });
    } else if (!fs.existsSync(target)) {
      out.push({ file: shown, ...pos, message: `resource "${value}" does not exist`, severity: 'error' });
    } else entries.push(target);
  }
  return entries;
}

function readInside(file: string, root: string, cwd: string, out: Diagnostic[]): SourceFile | undefined {
  const shown = path.relative(cwd, file) || file;
  if (!isInside(fs.realpathSync(file), root)) {
    out.push({
      file: shown,
      line: 1,
      col: 1,
      message: 'links outside the app directory; rollgen reads only files inside it',
      severity: 'error',
    });
    return undefined;
  }
  return { path: shown, text: fs.readFileSync(file, 'utf8') };
}

function realDir(dir: string): string {
  try {
    const real = fs.realpathSync(dir);
    if (!fs.statSync(real).isDirectory()) throw new IoError(dir, 'is not a directory');
    return real;
  } catch (e) {
    if (e instanceof IoError) throw e;
    throw new IoError(dir, 'cannot read the app directory', { cause: e });
  }
}

function isInside(target: string, root: string): boolean {
  const real = fs.existsSync(target) ? fs.realpathSync(target) : target;
  const rel = path.relative(root, real);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export async function readStdin(stream: NodeJS.ReadableStream = process.stdin): Promise<SourceFile[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return [{ path: '<stdin>', text: Buffer.concat(chunks).toString('utf8') }];
}
