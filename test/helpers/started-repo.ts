import * as fs from 'fs';
import * as path from 'path';
import { runCli } from './cli';

/** The hostile corpus's base repo: rollgen.yaml with one Kruise/nginx app, apps/echo -> deploy/echo. */
export const BASE_REPO = path.join(__dirname, '..', 'hostile', 'base');
export const OUTPUT = path.join('deploy', 'echo');

/** The base repo at `dir`, deployed and adopted, with a new image in the source: each advance from here moves one step. */
export async function startedRepo(dir: string): Promise<string> {
  fs.cpSync(BASE_REPO, dir, { recursive: true });
  const env = { ...process.env, ROLLGEN_LOCK_TIMEOUT: '0' };
  for (let i = 0; i < 2; i++) expect((await runCli(['advance'], dir, '', { env })).code).toBe(0);
  const dep = path.join(dir, 'apps', 'echo', 'deployment.yaml');
  fs.writeFileSync(dep, fs.readFileSync(dep, 'utf8').replace('agnhost:2.53', 'agnhost:2.54'));
  return dir;
}

/** A started repo with a second app, apps/echo2 -> deploy/echo2, on a host of its own (the two claim no route in common). */
export async function startedTwoApps(dir: string): Promise<string> {
  const repo = await startedRepo(dir);
  const second = path.join(repo, 'apps', 'echo2');
  fs.cpSync(path.join(repo, 'apps', 'echo'), second, { recursive: true });
  const ingress = path.join(second, 'ingress.yaml');
  fs.writeFileSync(ingress, fs.readFileSync(ingress, 'utf8').replaceAll('echo.example.com', 'echo2.example.com'));
  fs.writeFileSync(path.join(repo, 'rollgen.yaml'), 'apps:\n  - source: apps/*\n    output: deploy/{name}\n');
  return repo;
}
