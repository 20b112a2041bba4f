import * as fs from 'fs';
import * as path from 'path';
import { parseDocument, isSeq, isScalar, LineCounter } from 'yaml';
import { Diagnostic, compareText } from '../diagnostics';
import { InputError, IoError } from '../errors';

export interface SourceFile {
  /** Path shown in messages: relative to the working directory. */
  readonly path: string;
  readonly text: string;
  /** A built source (kustomize, `build:`): the files it came from, so objects point back at their lines. */
  readonly originals?: readonly SourceFile[];
}

const KUSTOMIZATION_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const KUSTOMIZATION_LOWER = new Set(KUSTOMIZATION_NAMES.map((n) => n.toLowerCase()));
const NOT_MANIFESTS = new Set(['rollgen.yaml', 'rollgen-status.yaml']);

/** Reads an app directory: its kustomization's `resources:`, or else every *.yaml/*.yml in it. */
export function readAppSource(dir: string, cwd: string): SourceFile[] {
  const root = realDir(dir);
  const diagnostics: Diagnostic[] = [];
  const files = readDir(root, root, cwd, diagnostics, [root]);
  if (diagnostics.length > 0) throw new InputError(diagnostics);
  return files;
}

/** `chain`: the directories whose kustomizations led here, this one last (a cycle is refused where it is written). */
function readDir(dir: string, root: string, cwd: string, out: Diagnostic[], chain: readonly string[]): SourceFile[] {
  if (chain.length > 11) throw new IoError(dir, 'kustomization resources nest more than 10 levels deep');
  const entries = fs.readdirSync(dir, { withFileTypes: true });
  // Looked up by name only where the listing holds one like it, in any case (as a case-insensitive
  // file system would match it): an app directory of plain manifests costs no lookups.
  const candidate = entries.some((e) => KUSTOMIZATION_LOWER.has(e.name.toLowerCase()));
  const kustomization = candidate
    ? KUSTOMIZATION_NAMES.map((n) => path.join(dir, n)).find((p) => fs.existsSync(p))
    : undefined;
  if (!kustomization) {
    // The last of `chain` is this directory's real path: a plain file in it needs no realpath of its own.
    const real = chain[chain.length - 1];
    return entries
      .filter((e) => /\.ya?ml$/.test(e.name) && !NOT_MANIFESTS.has(e.name))
      .sort((a, b) => compareText(a.name, b.name))
      .map((e) => readInside(path.join(dir, e.name), root, cwd, out, e.isFile() ? path.join(real, e.name) : undefined))
      .filter((f): f is SourceFile => f !== undefined);
  }
  return resourcesOf(kustomization, root, cwd, out, chain).flatMap((entry) => {
    if (fs.statSync(entry).isDirectory()) return readDir(entry, root, cwd, out, [...chain, fs.realpathSync(entry)]);
    const file = readInside(entry, root, cwd, out);
    return file ? [file] : [];
  });
}

/** The kustomization's `resources:` entries as absolute paths, each checked to stay inside the app directory. */
function resourcesOf(file: string, root: string, cwd: string, out: Diagnostic[], chain: readonly string[]): string[] {
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
    } else if (chain.includes(fs.realpathSync(target))) {
      const message = `resource "${value}" includes itself (a kustomization that lists it); remove the entry`;
      out.push({ file: shown, ...pos, message, severity: 'error' });
    } else entries.push(target);
  }
  return entries;
}

/** `real`: the file's real path when the caller knows it (a plain file listed in a real directory). */
function readInside(
  file: string,
  root: string,
  cwd: string,
  out: Diagnostic[],
  real = fs.realpathSync(file),
): SourceFile | undefined {
  const shown = path.relative(cwd, file) || file;
  if (!contains(root, real)) {
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
    // One realpath(3) call: the JavaScript realpathSync lstats every component, for every app of a repo.
    const real = fs.realpathSync.native(dir);
    if (!fs.statSync(real).isDirectory()) throw new IoError(dir, 'is not a directory');
    return real;
  } catch (e) {
    if (e instanceof IoError) throw e;
    throw new IoError(dir, 'cannot read the app directory', { cause: e });
  }
}

function isInside(target: string, root: string): boolean {
  return contains(root, fs.existsSync(target) ? fs.realpathSync(target) : target);
}

/** Whether the real path `real` is `root` or below it. */
function contains(root: string, real: string): boolean {
  const rel = path.relative(root, real);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export async function readStdin(stream: NodeJS.ReadableStream = process.stdin): Promise<SourceFile[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return [{ path: '<stdin>', text: Buffer.concat(chunks).toString('utf8') }];
}
