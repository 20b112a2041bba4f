import { execFileSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FakeScm } from './fake-scm';
import { SCRATCH_ENV } from './jest-global-setup';

export const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'kruise-nginx', 'echoserver');

/** Real git in `repo`, with author and committer dates set to `at` so history carries simulated time. */
export function git(repo: string, args: readonly string[], at = new Date('2026-01-01T00:00:00Z')): string {
  const date = at.toISOString();
  return execFileSync('git', [...args], {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
    },
    // As rollgen's own runner (src/io/git.ts): a failure's stderr goes into the error, not the test log.
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Copies the Kruise example as app `name` under apps/, with its own names and host. */
export function addApp(repo: string, name: string): void {
  const dir = path.join(repo, 'apps', name);
  fs.cpSync(EXAMPLE, dir, { recursive: true });
  for (const f of fs.readdirSync(dir)) {
    const file = path.join(dir, f);
    const text = fs
      .readFileSync(file, 'utf8')
      .replace(/echoserver/g, name)
      .replace('rollouts-demo', `${name}-rollout`)
      .replace(/echo\.example\.com/g, `${name}.example.com`);
    fs.writeFileSync(file, text);
  }
}

/** A git repository on `main` with rollgen.yaml and the given apps, committed at `at`. */
export function makeRepo(apps: readonly string[], config: string, at: Date): string {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-flow-'));
  const template = repoTemplate(apps, config, at);
  if (template) fs.cpSync(template, repo, { recursive: true });
  else buildRepo(repo, apps, config, at);
  return repo;
}

/**
 * The repository makeRepo copies, built once per jest run for each (apps, config, date) in the
 * run's scratch directory and shared by its workers: three git starts fewer per repository, and
 * the same commit (git ids depend on content, names and dates only). Undefined outside a jest run.
 */
function repoTemplate(apps: readonly string[], config: string, at: Date): string | undefined {
  const scratch = process.env[SCRATCH_ENV];
  if (!scratch) return undefined;
  const key = createHash('sha256')
    .update(JSON.stringify([apps, config, at.toISOString()]))
    .digest('hex');
  const template = path.join(scratch, `repo-template-${key.slice(0, 16)}`);
  if (fs.existsSync(template)) return template;
  const building = fs.mkdtempSync(`${template}.`);
  buildRepo(building, apps, config, at);
  try {
    fs.renameSync(building, template);
  } catch {
    fs.rmSync(building, { recursive: true, force: true }); // another worker built it first
  }
  return template;
}

function buildRepo(repo: string, apps: readonly string[], config: string, at: Date): void {
  for (const name of apps) addApp(repo, name);
  fs.writeFileSync(path.join(repo, 'rollgen.yaml'), config);
  git(repo, ['init', '--quiet', '--initial-branch=main']);
  commitAll(repo, 'initial', at);
}

export function commitAll(repo: string, message: string, at: Date): void {
  git(repo, ['add', '--all'], at);
  git(repo, ['commit', '--quiet', '-m', message], at);
}

/** A new version of an app's source, pushed to main by a person. */
export function bumpImage(repo: string, app: string, tag: string, at: Date): void {
  const file = path.join(repo, 'apps', app, 'deployment.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/image: (\S+?):\S+/, `image: $1:${tag}`));
  commitAll(repo, `${app} ${tag}`, at);
}

/** A merged PR reaches the checkout: its head commit's files land on main as one commit dated `at`. */
export function land(fake: FakeScm, repo: string, number: number, at: Date): void {
  for (const c of fake.changesOf(number)) {
    const file = path.join(repo, c.path);
    if (c.content === null) fs.rmSync(file);
    else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, c.content);
    }
  }
  commitAll(repo, `Merge #${number}`, at);
}
