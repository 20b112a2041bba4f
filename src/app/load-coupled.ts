import * as path from 'path';
import { InputError } from '../errors';
import { findConfig } from '../io/config';
import { SourceFile } from '../io/read-source';
import type { LoadedApp } from '../spec/loaded-app';
import {
  AppIndex,
  IndexEntry,
  Stamp,
  appKey,
  appStamp,
  coupledApps,
  couplingKeys,
  indexFile,
  readIndex,
  writeIndex,
} from './app-index';
import { AppLocation, loadSource, readSourceFiles } from './inputs';
import { CommonOptions, RunContext } from './context';

/**
 * The other apps a command on some apps of rollgen.yaml must check them against: only those coupled
 * to them (app-index.ts), found through the stored index; an app whose inputs changed since it was
 * indexed is loaded in full and indexed again. So `render APP` in a repo of N apps reads every
 * app's files but parses only its own and its peers'.
 */
export function loadCoupled(
  ctx: RunContext,
  opts: CommonOptions,
  named: readonly LoadedApp[],
  others: readonly AppLocation[],
): LoadedApp[] {
  const configFile = opts.config ? path.resolve(ctx.cwd, opts.config) : findConfig(ctx.cwd);
  const file = configFile ? indexFile(configFile, ctx.env ?? process.env) : undefined;
  const stored: AppIndex = file ? readIndex(file) : new Map();
  const fresh: AppIndex = new Map();
  const entries = new Map<string, IndexEntry>();
  const loaded = new Map<string, LoadedApp>();
  const now = (ctx.now ?? (() => new Date()))().getTime();
  for (const loc of others) {
    const key = appKey(loc);
    const known = stored.get(key);
    const stamped = appStamp(loc, now, known?.stamp);
    let entry = stamped?.unchanged ? known : undefined;
    if (!entry) {
      const files = readQuietly(loc, ctx);
      const app = files && loadQuietly(loc, files);
      if (app) loaded.set(loc.name, app);
      entry = { keys: app ? couplingKeys(app) : [], ok: app !== undefined, stamp: stamped?.stamp ?? NO_STAMP };
    }
    // A racy stamp is not stored: the next run loads the app again.
    if (stamped) fresh.set(key, entry);
    entries.set(loc.name, entry);
    if (!entry.ok) ctx.stderr(brokenNote(loc.name));
  }
  if (file && !sameIndex(stored, fresh)) writeIndex(file, fresh);
  const chosen = coupledApps(
    named.flatMap((app) => couplingKeys(app)),
    new Map([...entries].filter(([, e]) => e.ok)),
  );
  return others
    .filter((loc) => chosen.has(loc.name))
    .flatMap((loc) => {
      const app = loaded.get(loc.name) ?? loadQuietly(loc, readQuietly(loc, ctx) ?? []);
      return app ? [app] : [];
    });
}

export const brokenNote = (name: string) =>
  `note: app ${name} has errors and is left out of repo-wide checks; run rollgen validate ${name}\n`;

function readQuietly(loc: AppLocation, ctx: RunContext): SourceFile[] | undefined {
  try {
    return readSourceFiles(loc, ctx.cwd);
  } catch (e) {
    if (e instanceof InputError) return undefined;
    throw e;
  }
}

export function loadQuietly(loc: AppLocation, files: readonly SourceFile[]): LoadedApp | undefined {
  try {
    return loadSource(loc, files);
  } catch (e) {
    if (e instanceof InputError) return undefined;
    throw e;
  }
}

/** An app whose stamp is unchanged keeps its stored entry, so the same entries mean the same index. */
function sameIndex(a: AppIndex, b: AppIndex): boolean {
  return a.size === b.size && [...b].every(([k, e]) => a.get(k) === e);
}

const NO_STAMP: Stamp = { dirs: {}, stats: [] };
