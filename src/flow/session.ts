import * as path from 'path';
import { InputError } from '../errors';
import { RepoConfig, findConfig, readConfig } from '../io/config';
import { PendingWrite, planWrite } from '../app/plan-write';
import { usesConfig } from '../app/inputs';
import { CommonOptions, RunContext } from '../app/context';
import { LoadedEntry, loadRepo } from '../app/load-repo';
import { RepoPeers } from '../render/repo-peers';
import { AppCommand } from '../state/app-state';
import { ScmClient } from '../scm/types';
import { Target } from './branch';
import { Checkout, readCheckout, readTemplate } from './checkout';
import { ConnectionFlags, readConnection } from './connection';
import { FlowEdges, flowEdges } from './edges';
import { ExecuteOptions } from './execute';
import { Marker } from './marker';
import { Proposal, buildProposal } from './proposal';
import { PrTemplates, compileTemplates } from './templates';

export interface FlowOptions extends CommonOptions, ConnectionFlags {
  readonly dryRun?: boolean;
  readonly base?: string;
}

/** Everything one run of the flow reads before it decides: apps, config, the checkout, the code host. */
export interface FlowSession {
  readonly ctx: RunContext;
  readonly edges: FlowEdges;
  readonly token: string;
  readonly scm: ScmClient;
  readonly config: RepoConfig;
  readonly checkout: Checkout;
  readonly apps: readonly LoadedEntry[];
  readonly peers: RepoPeers;
  readonly templates: PrTemplates;
}

export async function openSession(ctx: RunContext, args: readonly string[], opts: FlowOptions): Promise<FlowSession> {
  const edges = flowEdges(ctx);
  const connection = readConnection(edges.env, opts);
  if (!usesConfig({ cwd: ctx.cwd, args, ...opts }))
    throw new InputError(
      [],
      'the GitHub flow works on apps of rollgen.yaml: give app names (or none for all), not directories',
    );
  const configFile = opts.config ? path.resolve(ctx.cwd, opts.config) : findConfig(ctx.cwd);
  if (!configFile) throw new InputError([], 'the GitHub flow needs a rollgen.yaml; run where it is or pass --config');
  const config = readConfig(configFile, ctx.cwd);
  const { apps, peers } = await loadRepo(ctx, args, opts);
  const paths = apps.flatMap((a) => [a.loc.source, a.loc.output ?? a.loc.source]);
  const checkout = readCheckout(edges.git, config.root, config.pr, opts.base, paths);
  const templates = compileTemplates(
    readTemplate(config.pr.titleTemplate, ctx.cwd, configFile),
    readTemplate(config.pr.bodyTemplate, ctx.cwd, configFile),
  );
  return { ctx, edges, token: connection.token, scm: edges.scm(connection), config, checkout, apps, peers, templates };
}

/** The PR for one app and command, or undefined when the command has nothing to write. */
export function proposalFor(
  s: FlowSession,
  entry: LoadedEntry,
  command: AppCommand,
  origin: Marker['origin'],
  target?: Target,
): Proposal | undefined {
  const write: PendingWrite | undefined = planWrite(s.ctx, entry.loc, entry.app, command, s.peers, 'warn');
  if (!write) return undefined;
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
