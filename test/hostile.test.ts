import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse } from 'yaml';
import { runCli } from './helpers/cli';
import { treeHashes } from './helpers/tree-hash';

/**
 * The hostile-input corpus (test/hostile/README.md): one table, every case through the CLI's main()
 * in-process, as bin/rollgen runs it; a case that sets what belongs to a process (a umask, or an
 * environment such as the locale, read once at start) runs the built bin/rollgen (`npm run build` first).
 */
const CORPUS = path.join(__dirname, 'hostile');
const BIN = path.join(__dirname, '..', 'bin', 'rollgen');

interface HostileCase {
  readonly args: readonly string[];
  readonly exit: number;
  readonly before?: readonly (readonly string[])[];
  readonly remove?: readonly string[];
  readonly links?: Readonly<Record<string, string>>;
  readonly rename?: Readonly<Record<string, string>>;
  readonly edits?: Readonly<Record<string, readonly (readonly [string, string])[]>>;
  readonly env?: Readonly<Record<string, string>>;
  readonly umask?: string;
  readonly stderr?: readonly string[];
  readonly stderrOrder?: readonly string[];
  readonly stderrNot?: readonly string[];
  readonly stdoutNot?: readonly string[];
  readonly outputs?: Readonly<Record<string, readonly string[]>>;
  readonly outputsNot?: Readonly<Record<string, readonly string[]>>;
  readonly modes?: Readonly<Record<string, string>>;
  readonly changes?: readonly string[];
}

const cases = fs
  .readdirSync(CORPUS)
  .filter((n) => fs.existsSync(path.join(CORPUS, n, 'case.yaml')))
  .sort();

async function rollgen(
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
  umask?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const fullEnv = { ...process.env, ROLLGEN_LOCK_TIMEOUT: '0', ...env };
  if (umask || Object.keys(env).length > 0) {
    // A umask is set in a shell that then becomes rollgen.
    const [cmd, argv] = umask
      ? ['/bin/sh', ['-c', `umask ${umask} && exec "$0" "$@"`, process.execPath, BIN, ...args]]
      : [process.execPath, [BIN, ...args]];
    const r = spawnSync(cmd, argv, { cwd, encoding: 'utf8', env: fullEnv });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }
  // Node prints a process warning to stderr as "(node:PID) Warning: ..."; in-process it is an event.
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`(node:${process.pid}) Warning: ${w.message}\n`);
  process.on('warning', onWarning);
  try {
    const r = await runCli(args, cwd, '', { env: fullEnv });
    return { ...r, stderr: r.stderr + warnings.join('') };
  } finally {
    process.off('warning', onWarning);
  }
}

/** <tmp>/repo (base, `before` commands, the case's files, links) beside <tmp>/victim. */
async function setUp(name: string, c: HostileCase): Promise<string> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-hostile-'));
  const repo = path.join(tmp, 'repo');
  fs.cpSync(path.join(CORPUS, 'base'), repo, { recursive: true });
  fs.mkdirSync(path.join(tmp, 'victim'));
  fs.writeFileSync(path.join(tmp, 'victim', 'x'), 'victim file\n');
  fs.writeFileSync(path.join(tmp, 'victim', 'pwned.yaml'), 'kind: Victim\n');
  for (const args of c.before ?? []) expect(await rollgen(args, repo)).toMatchObject({ code: 0 });
  for (const p of c.remove ?? []) fs.rmSync(path.join(repo, p), { recursive: true });
  const files = path.join(CORPUS, name, 'repo');
  if (fs.existsSync(files)) fs.cpSync(files, repo, { recursive: true });
  for (const [file, pairs] of Object.entries(c.edits ?? {})) {
    let text = fs.readFileSync(path.join(repo, file), 'utf8');
    for (const [from, to] of pairs) {
      expect(text).toContain(from);
      text = text.replace(from, to);
    }
    fs.writeFileSync(path.join(repo, file), text);
  }
  for (const [from, to] of Object.entries(c.rename ?? {})) fs.renameSync(path.join(repo, from), path.join(repo, to));
  for (const [link, target] of Object.entries(c.links ?? {})) {
    fs.rmSync(path.join(repo, link), { recursive: true, force: true });
    fs.mkdirSync(path.dirname(path.join(repo, link)), { recursive: true });
    fs.symlinkSync(target, path.join(repo, link));
  }
  return tmp;
}

test.each(cases)('%s', async (name) => {
  const c = parse(fs.readFileSync(path.join(CORPUS, name, 'case.yaml'), 'utf8')) as HostileCase;
  const tmp = await setUp(name, c);
  try {
    const repo = path.join(tmp, 'repo');
    const allowed = (c.changes ?? []).map((p) => path.join('repo', p));
    const before = treeHashes(tmp, allowed);
    const r = await rollgen(c.args, repo, c.env, c.umask);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: c.exit, stderr: expect.any(String) });
    for (const s of c.stderr ?? []) expect(r.stderr).toContain(s);
    for (const s of c.stderrNot ?? []) expect(r.stderr).not.toContain(s);
    const positions = (c.stderrOrder ?? []).map((s) => r.stderr.indexOf(s));
    expect(positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1]))).toBe(true);
    for (const s of c.stdoutNot ?? []) expect(r.stdout).not.toContain(s);
    expect(r.stderr).not.toMatch(/internal error|Maximum call stack|\(node:\d+\) Warning|^\s+at /m);
    expect(treeHashes(tmp, allowed)).toEqual(before);
    for (const [file, wanted] of Object.entries(c.outputs ?? {})) {
      const text = fs.readFileSync(path.join(repo, file), 'utf8');
      for (const w of wanted) expect(text).toContain(w);
    }
    for (const [file, unwanted] of Object.entries(c.outputsNot ?? {})) {
      const text = fs.readFileSync(path.join(repo, file), 'utf8');
      for (const w of unwanted) expect(text).not.toContain(w);
    }
    for (const [p, mode] of Object.entries(c.modes ?? {}))
      expect((fs.statSync(path.join(repo, p)).mode & 0o777).toString(8)).toBe(mode);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
