import { CommonOptions, RunContext } from '../app/context';
import { locateApps } from '../app/inputs';

/**
 * `rollgen completion SHELL --apps`, which the completion scripts run: the app names of rollgen.yaml,
 * one a line. Only rollgen.yaml and its globs are read, never an app, so a Tab answers at once.
 */
export async function appNamesCommand(ctx: RunContext, options: CommonOptions): Promise<void> {
  const apps = locateApps({ cwd: ctx.cwd, args: [], ...(options.config ? { config: options.config } : {}) });
  ctx.stdout(apps.map((a) => `${a.name}\n`).join(''));
}
