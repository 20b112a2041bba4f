import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Diagnostic } from '../diagnostics';
import { InputError, IoError } from '../errors';
import type { SourceFile } from './read-source';
import { kustomizationIn, walkKustomization } from './kustomize-tree';

/** The source of one app as users write it: a `build:` command's output, or a kustomization built by kustomize. */
export interface BuildRequest {
  readonly name: string;
  readonly source: string;
  /** Paths the source reaches must stay below this directory (the repo). */
  readonly root: string;
  readonly build?: string;
}

/**
 * Undefined when the source is plain manifests (read file by file). Otherwise one SourceFile with
 * the built stream, carrying the files it came from so objects map back to their lines.
 */
export function buildSource(req: BuildRequest, cwd: string): SourceFile[] | undefined {
  if (req.build) return [runBuildCommand(req, cwd)];
  const kustomization = kustomizationIn(req.source);
  if (!kustomization) return undefined;
  const diagnostics: Diagnostic[] = [];
  const files = walkKustomization(req.source, req.root, cwd, diagnostics);
  if (diagnostics.length > 0) throw new InputError(diagnostics);
  const shown = path.relative(cwd, kustomization) || kustomization;
  return [{ path: `${shown} (kustomize build)`, text: kustomizeBuild(req.source, shown), originals: files }];
}

/** `kustomize build`, else `kubectl kustomize`, with kustomize's default load restrictor (files only below each kustomization). */
function kustomizeBuild(dir: string, shown: string): string {
  for (const [tool, args] of [
    ['kustomize', ['build', dir]],
    ['kubectl', ['kustomize', dir]],
  ] as const) {
    try {
      return execFileSync(tool, [...args], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        maxBuffer: 64 << 20,
      });
    } catch (e) {
      const err = e as NodeJS.ErrnoException & { stderr?: string };
      if (err.code === 'ENOENT') continue;
      const why = (err.stderr ?? '').trim() || err.message;
      throw new InputError([
        { file: shown, line: 1, col: 1, severity: 'error', message: `kustomize cannot build it: ${why}` },
      ]);
    }
  }
  throw new IoError(
    shown,
    'rollgen builds a source with a kustomization the way kustomize does, and neither kustomize nor kubectl is on PATH: install kubectl (its `kubectl kustomize`) or kustomize',
  );
}

/** rollgen.yaml `build:`: a shell command in the repo root; its stdout is the source, the app's files map objects back. */
function runBuildCommand(req: BuildRequest, cwd: string): SourceFile {
  const command = req.build!;
  let text: string;
  try {
    text = execFileSync('sh', ['-c', command], {
      cwd: req.root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 << 20,
      env: { ...process.env, ROLLGEN_APP: req.name, ROLLGEN_SOURCE: req.source },
    });
  } catch (e) {
    const err = e as { status?: number; stderr?: string; message: string };
    const why = (err.stderr ?? '').trim().split('\n').slice(-5).join('\n') || err.message;
    throw new IoError(req.name, `build command \`${command}\` failed (exit ${err.status ?? '?'}): ${why}`, {
      cause: e,
    });
  }
  return { path: `${req.name}: build \`${command}\``, text, originals: yamlFilesBelow(req.source, cwd) };
}

/** Every YAML file under the app's source directory: where built objects are looked up to point at their lines. */
function yamlFilesBelow(dir: string, cwd: string): SourceFile[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((n) => /\.ya?ml$/.test(n))
    .sort()
    .map((n) => path.join(dir, n))
    .filter((f) => fs.statSync(f).isFile())
    .map((f) => ({ path: path.relative(cwd, f) || f, text: fs.readFileSync(f, 'utf8') }));
}
