import * as path from 'path';
import { InputError } from '../errors';
import { RepoConfig, findConfig, readConfig } from '../io/config';
import { PendingWrite, planWrite } from '../app/next-output';
import { usesConfig } from '../app/inputs';
import { RunContext } from '../app/context';
import { LoadedEntry } from '../app/load-repo';
import { ShardOptions, loadShard } from '../app/load-shard';
import { RepoPeers } from '../render/repo-peers';
import { AppCommand } from '../state/app-state';
import { ScmClient, ScmConnection } from '../scm/types';
import { RepoLinks, serverUrlOf } from './abort-path';
import { Target } from './branch';
import { Checkout, readCheckout, readTemplate } from './checkout';
import { ConnectionFlags, readConnection } from './connection';
import { chooseForge, Forge } from './forge';
import { FlowEdges, flowEdges } from './edges';
import { ExecuteOptions } from './execute';
import { Marker } from './marker';
import { Proposal, buildProposal } from './proposal';
import { readSourceCommits } from './source-commits';
import { PrTemplates, compileTemplates } from './templates';

export interface FlowOptions extends ShardOptions, ConnectionFlags {
  readonly dryRun?: boolean;
  /** With dryRun: no token, no request, no push; print each app's PR as it would be now. */
  readonly offline?: boolean;
  readonly base?: string;
}

/** What one run of the flow reads locally: apps, config, the checkout, templates, and the links a PR body gives. */
export interface LocalSession {
  readonly ctx: RunContext;
  readonly edges: FlowEdges;
  readonly config: RepoConfig;
  readonly checkout: Checkout;
  readonly apps: readonly LoadedEntry[];
  readonly peers: RepoPeers;
  readonly templates: PrTemplates;
  readonly links: RepoLinks;
}

/** Everything one run of the flow reads before it decides: the local session and the code host. */
export interface FlowSession extends LocalSession {
  readonly token: string;
  readonly scm: ScmClient;
}

export async function openSession(ctx: RunContext, args: readonly string[], opts: FlowOptions): Promise<FlowSession> {
  const connection = readConnection(flowEdges(ctx).env, opts);
  const local = await openLocalSession(ctx, args, opts, connection);
  // The checkout holds the base: step branches are committed there and pushed by git (src/scm/github/branches.ts).
  const scm = local.edges.scm({ ...connection, serverUrl: local.links.serverUrl, localRepo: local.checkout.root });
  return { ...local, token: connection.token, scm };
}

/** The session without the code host (`pr --dry-run --offline`); `connection` only names the repository for links. */
export async function openLocalSession(
  ctx: RunContext,
  args: readonly string[],
  opts: FlowOptions,
  connection: Pick<ScmConnection, 'apiUrl' | 'serverUrl' | 'forge'> & {
    readonly repository?: string;
  } = offlineConnection(ctx, opts),
): Promise<LocalSession> {
  const edges = flowEdges(ctx);
  if (!usesConfig({ cwd: ctx.cwd, args, ...opts }))
    throw new InputError(
      [],
      'the GitHub flow works on apps of rollgen.yaml: give app names (or none for all), not directories',
    );
  const configFile = opts.config ? path.resolve(ctx.cwd, opts.config) : findConfig(ctx.cwd);
  if (!configFile) throw new InputError([], 'the GitHub flow needs a rollgen.yaml; run where it is or pass --config');
  const config = readConfig(configFile, ctx.cwd);
  if (config.pr.templateProblems?.length) throw new InputError([...config.pr.templateProblems]);
  const { apps, peers } = await loadShard(ctx, args, opts);
  const paths = apps.flatMap((a) => [a.loc.source, a.loc.output ?? a.loc.source]);
  const checkout = readCheckout(edges.git, config.root, config.pr, opts.base, paths);
  const templates = compileTemplates(
    readTemplate(config.pr.titleTemplate, ctx.cwd, configFile),
    readTemplate(config.pr.bodyTemplate, ctx.cwd, configFile),
  );
  const links: RepoLinks = {
    serverUrl: connection.serverUrl ?? serverUrlOf(connection.apiUrl, edges.env.GITHUB_SERVER_URL),
    ...(connection.repository ? { repository: connection.repository } : {}),
    workflow: config.pr.workflow,
    ...(connection.forge ? { forge: connection.forge } : {}),
  };
  return { ctx, edges, config, checkout, apps, peers, templates, links };
}

/** Offline, the repository is only named in links: taken as given, never checked against a host. */
function offlineConnection(ctx: RunContext, opts: FlowOptions): { apiUrl: string; repository?: string; forge: Forge } {
  const env = flowEdges(ctx).env;
  const repository = opts.repo ?? env.GITHUB_REPOSITORY;
  return {
    forge: chooseForge(env, opts),
    apiUrl: opts.apiUrl ?? env.GITHUB_API_URL ?? 'https://api.github.com',
    ...(repository && /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository) ? { repository } : {}),
  };
}

/** The PR for one app and command, or undefined when the command has nothing to write. */
export function proposalFor(
  s: LocalSession,
  entry: LoadedEntry,
  command: AppCommand,
  origin: Marker['origin'],
  target?: Target,
): Proposal | undefined {
  return proposalsFor(s, [entry], command, origin, target)[0];
}

/** proposalFor of each app; the source commits their bodies name come from one `git log` for all. */
export function proposalsFor(
  s: LocalSession,
  entries: readonly LoadedEntry[],
  command: AppCommand,
  origin: Marker['origin'],
  target?: Target,
): (Proposal | undefined)[] {
  const writes = entries.map((e) => planWrite(s.ctx, e.loc, e.app, command, s.peers, 'warn'));
  const writing = entries.filter((_, i) => writes[i]);
  const commits = readSourceCommits(
    s.edges.git,
    s.checkout.root,
    writing.map((e) => e.loc.source),
  );
  const commitOf = new Map(writing.map((e, i) => [e, commits[i]]));
  return entries.map((entry, i) => {
    const write: PendingWrite | undefined = writes[i];
    if (!write) return undefined;
    const sourceCommit = commitOf.get(entry);
    return buildProposal({
      app: entry.app,
      write,
      origin,
      base: s.checkout.base,
      repoRoot: s.checkout.root,
      readBase: s.checkout.read,
      templates: s.templates,
      extraLabels: s.config.pr.labels,
      ...(target ? { target } : {}),
      track: entry.loc.track,
      ...(entry.loc.health ? { health: entry.loc.health } : {}),
      links: s.links,
      ...(sourceCommit ? { sourceCommit } : {}),
    });
  });
}

export function executeOptions(s: FlowSession, dryRun: boolean): ExecuteOptions {
  return {
    dryRun,
    base: s.checkout.base,
    mergeMethod: s.config.pr.mergeMethod,
    parent: s.checkout.head,
    parentTree: s.checkout.tree,
    print: (l) => s.ctx.stdout(l + '\n'),
    ...(s.ctx.report ? { report: s.ctx.report } : {}),
  };
}
