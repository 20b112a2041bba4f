import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse } from 'yaml';
import { runCli } from './cli';
import { hasKubectl, kustomizeBuild, kustomizeBuildEach, validateAgainstSchemas, validateObjects } from './schema';

/** The built CLI (`npm run build` first), as a GitOps pipeline runs it. */
export const BIN = path.join(__dirname, '..', '..', 'bin', 'rollgen');

/** A new temp dir (named `prefix…`) with `source`, when given, copied to its src/. */
export function makeAppDir(prefix: string, source?: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (source) fs.cpSync(source, path.join(dir, 'src'), { recursive: true });
  return dir;
}

/** An app dir of the running test (see `useAppDir`) and readers of its out/. */
export interface AppDir {
  readonly dir: string;
  /** Path of out/ or of a file in it. */
  out(file?: string): string;
  read(file: string): string;
  /** The file names in out/, sorted. */
  files(): string[];
  /** The first rollout of out/rollgen-status.yaml. */
  status(): { phase: string; step: number };
  /** Sets the agnhost image tag in src/<file>, which changes the pod template. */
  setImage(tag: string, file?: string): void;
}

/** Gives each test (or, with `'all'`, the describe block) a fresh `makeAppDir(prefix, source)`, removed after it. */
export function useAppDir(prefix: string, source?: string, scope: 'each' | 'all' = 'each'): AppDir {
  let current: string | undefined;
  (scope === 'each' ? beforeEach : beforeAll)(() => void (current = makeAppDir(prefix, source)));
  (scope === 'each' ? afterEach : afterAll)(() => {
    fs.rmSync(current!, { recursive: true, force: true });
    validateQueued();
  });
  const app: AppDir = {
    get dir() {
      if (!current) throw new Error('useAppDir: no app dir outside a test');
      return current;
    },
    out: (file = '') => path.join(app.dir, 'out', file),
    read: (file) => fs.readFileSync(app.out(file), 'utf8'),
    files: () => fs.readdirSync(app.out()).sort(),
    status: () => parse(app.read('rollgen-status.yaml')).rollouts[0],
    setImage: (tag, file) => setImage(app.dir, tag, file),
  };
  return app;
}

/** Sets the agnhost image tag in `<dir>/src/<file>`, which changes the pod template. */
export function setImage(dir: string, tag: string, file = 'deployment.yaml'): void {
  const f = path.join(dir, 'src', file);
  fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace(/agnhost:[\w.]+/, `agnhost:${tag}`));
}

/**
 * Runs `rollgen <args>` in `dir` in-process: main() as bin/rollgen runs it, without a Node start
 * per command (the built bin/rollgen is tested as a process where a process matters: exit codes,
 * streams, signals, crashes, the package). Throws with stderr when it exits non-zero; returns stdout.
 */
export async function rollgenIn(dir: string, args: readonly string[]): Promise<string> {
  const r = await runCli(args, dir);
  if (r.code !== 0) throw new Error(`rollgen ${args.join(' ')} exited ${r.code}:\n${r.stderr}`);
  return r.stdout;
}

/** Runs `rollgen <args>` in `dir` in-process (rollgenIn), expecting exit 0 and nothing on stderr; returns stdout. */
export async function rollgenClean(dir: string, args: readonly string[]): Promise<string> {
  const r = await runCli(args, dir);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  return r.stdout;
}

/** `<dir>/out` built by kustomize, as Argo CD and Flux would; undefined without kubectl. */
export const buildOutput = (dir: string): string | undefined =>
  hasKubectl() ? kustomizeBuild(path.join(dir, 'out')) : undefined;

/** Validates every object of the built `<dir>/out` against its published schema; returns `Kind/name` of each, or undefined without kubectl. */
export function validateOutput(dir: string): string[] | undefined {
  const built = buildOutput(dir);
  return built === undefined ? undefined : validateAgainstSchemas(built);
}

/** Copies of outputs waiting to be built and validated together (validateOutputLater). */
const queued: string[] = [];

/**
 * Validates `<dir>/out` as it is now, like validateOutput, but builds it together with the other
 * outputs the test queued, in one `kubectl kustomize`, when the test ends (useAppDir) or at
 * validateQueued(): a test that checks every step of a rollout starts one Go process, not one per step.
 */
export function validateOutputLater(dir: string): void {
  if (!hasKubectl()) return;
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-queued-'));
  fs.cpSync(path.join(dir, 'out'), copy, { recursive: true });
  queued.push(copy);
}

/** Builds and validates every queued output (see validateOutputLater); throws naming the first that fails. */
export function validateQueued(): void {
  const dirs = queued.splice(0);
  try {
    if (dirs.length > 0)
      kustomizeBuildEach(dirs).forEach((built, i) => {
        try {
          validateObjects(built);
        } catch (e) {
          throw new Error(`output ${i + 1} of ${dirs.length} validated in this test: ${(e as Error).message}`);
        }
      });
  } finally {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
}
