import { formatDiagnostic } from '../diagnostics';
import { LoadedApp } from '../spec/load-app';
import { AppLocation, loadSource, locateApps, readSourceFiles } from './apps';
import { CommonOptions, RunContext } from './context';

/** Locates and loads the apps a command names, printing warnings to stderr. */
export async function loadApps(ctx: RunContext, args: readonly string[], opts: CommonOptions): Promise<{ loc: AppLocation; app: LoadedApp }[]> {
  const locations = locateApps({ cwd: ctx.cwd, args, ...opts });
  const out: { loc: AppLocation; app: LoadedApp }[] = [];
  for (const loc of locations) {
    const files = loc.source === '-' ? await ctx.readStdin() : readSourceFiles(loc, ctx.cwd);
    const app = loadSource(loc, files);
    for (const d of app.diagnostics) ctx.stderr(formatDiagnostic(d) + '\n');
    out.push({ loc, app });
  }
  return out;
}
