import { InputError } from '../errors';
import { CommonOptions, RunContext } from './context';
import { locateWithRepo, usesConfig } from './inputs';
import { indexedApps } from './load-coupled';
import { LoadedEntry, LoadedRepo, loadApps, loadRepo } from './load-repo';
import { Shard, appsOfShard, coupledGroups, parseShard } from './shards';

export interface ShardOptions extends CommonOptions {
  /** `--shard K/N` (checked by option-checks.ts). */
  readonly shard?: string;
}

/**
 * loadRepo of the apps of one shard (`--shard K/N`, docs/github-action.md): apps coupled by a
 * repo-wide rule, or in the fleet waves, are in one shard, so each shard checks and writes what one
 * run of all apps would, and no two shards write one app's branches. Without --shard, loadRepo.
 */
export async function loadShard(ctx: RunContext, args: readonly string[], opts: ShardOptions): Promise<LoadedRepo> {
  const names = await shardApps(ctx, args, opts);
  if (names === undefined) return loadRepo(ctx, args, opts);
  if (names.length === 0) return { apps: [], peers: new Map(), waves: [] };
  return loadRepo(ctx, names, opts);
}

/** loadApps (no repo-wide checks: `status`) of the apps of one shard. */
export async function loadShardApps(
  ctx: RunContext,
  args: readonly string[],
  opts: ShardOptions,
): Promise<LoadedEntry[]> {
  const names = await shardApps(ctx, args, opts);
  if (names === undefined) return loadApps(ctx, args, opts);
  return names.length === 0 ? [] : loadApps(ctx, names, opts);
}

/**
 * The app names of the shard, or undefined without --shard. Coupling comes from the app index
 * (app-index.ts): with a warm index no app is parsed to find the shard, only stat'ed; an app whose
 * files changed is loaded to index it again. Every shard reads the same repository, so every shard
 * computes the same partition.
 */
async function shardApps(ctx: RunContext, args: readonly string[], opts: ShardOptions): Promise<string[] | undefined> {
  if (opts.shard === undefined) return undefined;
  const shard: Shard = parseShard(opts.shard)!;
  if (args.length > 0 || opts.target !== undefined)
    throw new InputError(
      [],
      `--shard ${opts.shard} takes a part of all the apps of rollgen.yaml; name apps (or --target) or give --shard, not both`,
    );
  const req = { cwd: ctx.cwd, args, ...opts };
  if (!usesConfig(req))
    throw new InputError([], '--shard splits the apps of rollgen.yaml; run where it is or pass --config');
  const { every, waves } = locateWithRepo(req);
  const { entries } = await indexedApps(ctx, opts, every, true);
  const groups = coupledGroups(
    every.map((l) => l.name),
    (app) => (entries.get(app)?.ok ? entries.get(app)!.keys : []),
    // The waves run one after another: every target of every wave is one group.
    [waves.flatMap((w) => w.targets)],
  );
  const names = appsOfShard(groups, shard);
  // Said on stderr, so `status --shard K/N -o json` stays one document.
  ctx.stderr(
    `rollgen: shard ${shard.index}/${shard.count}: ${names.length} of ${every.length} apps (apps coupled by routes, ALB orders or fleet waves stay in one shard)\n`,
  );
  return names;
}
