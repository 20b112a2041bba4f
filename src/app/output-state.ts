import * as path from 'path';
import { InputError } from '../errors';
import { RepoPeers } from '../render/repo-peers';
import { LoadedApp } from '../spec/loaded-app';
import { OutputSnapshot } from '../state/app-state';
import { recoverStatus } from '../state/recover';
import { renamedWorkloads } from '../state/renamed-workload';
import { STATUS_FILE } from '../state/status';
import { AppLocation, readOutput } from './inputs';
import { RunContext } from './context';

/**
 * The output with its state: the status file, or, when it is lost, the state rebuilt from the
 * rendered objects (with a warning). A live canary whose state cannot be rebuilt is refused (exit 2)
 * with how to restore the file, so a lost status file never deploys a new version without its steps.
 * A command that writes reads it afresh under its lock; one that only reads may pass what it read.
 */
export function readAppOutput(
  ctx: RunContext,
  loc: AppLocation,
  app: LoadedApp,
  peers?: RepoPeers,
  /** The output as this run already read it (loadRepo), when nothing may have written it since. */
  read?: OutputSnapshot,
): OutputSnapshot {
  const output = read ?? readOutput(loc, ctx.cwd, ctx.stderr);
  // Before recovery: a renamed Deployment would otherwise read as a first deploy when the status file is lost too.
  const renamed = renamedWorkloads(app, output);
  if (renamed.length > 0) throw new InputError(renamed);
  const recovery = recoverStatus(app, output, loc.track, peers);
  if (recovery.kind === 'recorded') return recovery.output;
  const file = path.relative(ctx.cwd, path.join(loc.output ?? '.', STATUS_FILE)) || STATUS_FILE;
  if (recovery.kind === 'rebuilt') {
    ctx.stderr(`warning: ${file} is missing; state rebuilt from the rendered objects: ${recovery.summary}\n`);
    return recovery.output;
  }
  throw new InputError([
    {
      file,
      line: 1,
      col: 1,
      severity: 'error',
      message:
        `the status file is missing and ${recovery.problem}; nothing was written. Restore it from git: ` +
        `\`git checkout HEAD -- ${file}\`, or if a commit deleted it, ` +
        `\`git checkout "$(git rev-list -1 HEAD -- ${file})^" -- ${file}\``,
    },
  ]);
}
