import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments, parseDocument } from 'yaml';
import { CliResult, runCli } from './cli';
import { commitAll, git } from './git-repo';

/**
 * One app in a checkout (`apps/shop` -> `deploy/shop`, a rollgen.yaml), driven as a user drives it,
 * with a clock that rollgen and git both read: commits are dated `now`, so timed gates count from them.
 */
export class StatusWorld {
  now = new Date('2026-03-01T09:00:00Z');
  readonly dir: string;
  private bumps = 0;

  constructor(example: string, withGit: boolean, dir?: string) {
    this.dir = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-status-world-'));
    if (dir) return;
    fs.cpSync(example, path.join(this.dir, 'apps', 'shop'), { recursive: true });
    fs.writeFileSync(path.join(this.dir, 'rollgen.yaml'), 'apps:\n  - source: apps/shop\n    output: deploy/shop\n');
    if (withGit) {
      git(this.dir, ['init', '--quiet', '--initial-branch=main'], this.now);
      commitAll(this.dir, 'initial', this.now);
    }
  }

  /** An independent copy of the checkout (git directory included) at the same time. */
  copy(): StatusWorld {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-status-world-'));
    fs.cpSync(this.dir, dir, { recursive: true });
    const w = new StatusWorld('', false, dir);
    w.now = this.now;
    w.bumps = this.bumps;
    return w;
  }

  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  later(seconds: number): void {
    this.now = new Date(this.now.getTime() + seconds * 1000);
  }

  run(args: readonly string[]): Promise<CliResult> {
    return runCli(args, this.dir, '', { now: () => this.now, git: (a, cwd) => git(cwd, a, this.now) });
  }

  /** Runs a command that must succeed. */
  async ok(args: readonly string[]): Promise<string> {
    const r = await this.run(args);
    if (r.code !== 0) throw new Error(`rollgen ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
    return r.stdout;
  }

  /** The status view as data (`status --json`). */
  async view(...flags: string[]): Promise<StatusViewJson> {
    return JSON.parse(await this.ok(['status', 'shop', '--json', ...flags])).rollouts[0];
  }

  /** A new image tag in every container of the source, committed by a person when the checkout is in git. */
  bumpImage(): void {
    this.bumps += 1;
    const suffix = `-b${this.bumps}`;
    for (const file of yamlFiles(path.join(this.dir, 'apps', 'shop'))) {
      const text = fs.readFileSync(file, 'utf8');
      fs.writeFileSync(file, text.replace(/(image: \S+?:[^\s-]+(?:-[a-z]+)?)(-b\d+)?$/gm, `$1${suffix}`));
    }
    if (fs.existsSync(path.join(this.dir, '.git'))) commitAll(this.dir, `shop image ${suffix}`, this.now);
  }

  /** Sets the rollout's pause field (Argo spec.paused, Kruise spec.strategy.paused) with the yaml Document API. */
  pauseRollout(): void {
    for (const file of yamlFiles(path.join(this.dir, 'apps', 'shop'))) {
      const docs = parseAllDocuments(fs.readFileSync(file, 'utf8'));
      if (!Array.isArray(docs)) continue;
      const rollout = docs.find((d) => d.get('kind') === 'Rollout');
      if (!rollout) continue;
      const argo = String(rollout.get('apiVersion')).startsWith('argoproj.io');
      rollout.setIn(argo ? ['spec', 'paused'] : ['spec', 'strategy', 'paused'], true);
      fs.writeFileSync(file, docs.map((d) => d.toString()).join('---\n'));
    }
  }

  /** Every object of the rendered output (deploy/shop), parsed from the files rollgen wrote. */
  rendered(): Record<string, unknown>[] {
    const out = path.join(this.dir, 'deploy', 'shop');
    if (!fs.existsSync(out)) return [];
    return yamlFiles(out).flatMap((f) =>
      parseAllDocuments(fs.readFileSync(f, 'utf8')).flatMap((d) => (Array.isArray(d) ? [] : [d.toJS()])),
    );
  }

  /** The status file rollgen keeps in the output. */
  statusFile(): { rollouts: { phase: string; step: number; canaryRevision?: string; abortedStep?: number }[] } {
    const file = path.join(this.dir, 'deploy', 'shop', 'rollgen-status.yaml');
    return parseDocument(fs.readFileSync(file, 'utf8')).toJS();
  }
}

export interface StatusViewJson {
  phase: string;
  step: number | null;
  steps: number;
  strategy: { name: string; format: string; pingPong: boolean };
  traffic: { weight: number; weightTotal: number; byPods: boolean } | null;
  replicas: { desired: number; stable: number; canary: number };
  revisions: { stable: string | null; canary: string | null; source: string };
  images: { stable: Image[] | null; canary: Image[] | null; source: Image[] };
  aborted: { revision: string; step: number | null; images: Image[] | null } | null;
  gate: { kind: string; remaining: number | null; before: string } | null;
  mode: { name: string; why: string };
  next: { command: string; does: string } | null;
  otherCommands: { command: string; does: string }[];
}

interface Image {
  container: string;
  image: string;
}

function yamlFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}
