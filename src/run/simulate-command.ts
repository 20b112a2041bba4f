import type { SimRequest } from '../contract/generator';
import { InputError } from '../errors';
import { renderApp } from '../render/render-app';
import { renderState, statesAtStep } from '../state/app-state';
import { renderPhaseOf } from '../state/lifecycle';
import { colorAtGateway } from '../simulate/coloring';
import { PodShare, simulateRequest } from '../simulate/simulate';
import { readAppOutput } from '../app/output-state';
import { CommonOptions, RunContext } from '../app/context';
import { loadRepo } from '../app/load-repo';

export interface SimulateOptions extends CommonOptions {
  readonly step?: number;
  readonly header?: readonly string[];
  readonly cookie?: readonly string[];
  readonly query?: readonly string[];
  readonly host?: string;
  readonly path?: string;
}

/** Prints which backends and pods serve one request in a step (default: the state the output holds). */
export async function simulateCommand(ctx: RunContext, args: readonly string[], opts: SimulateOptions): Promise<void> {
  const { apps, peers } = await loadRepo(ctx, args, opts);
  if (apps.length !== 1) throw new InputError([], 'simulate evaluates one app; name it');
  const [{ loc, app }] = apps;
  const output = readAppOutput(ctx, loc, app, peers);
  const states =
    opts.step !== undefined
      ? statesAtStep(app, output, opts.step, loc.track)
      : app.rollouts.map((r) =>
          renderState(r, output, renderPhaseOf(output.status?.rollouts.find((s) => s.name === r.spec.name)), loc.track),
        );
  const objects = renderApp(app, states, loc.track, peers);
  const generators = app.rollouts.flatMap((r) => r.providers.map((p) => p.generator));
  // The request comes from outside: the ingress gateway colours it first (RequestColoring).
  const split = simulateRequest(objects, generators, colorAtGateway(objects, request(opts)));
  if (!split) return ctx.stdout('no route matches this request\n');
  ctx.stdout(`rule: ${split.rule}\n`);
  const line = (p: PodShare, prefix = '') =>
    `${(p.share * 100).toFixed(1).padStart(6)}%  ${prefix}service ${p.service} -> ${p.deployment ?? 'NO READY PODS'}\n`;
  for (const p of split.pods) ctx.stdout(line(p));
  // Mirrored copies: the share of these requests also copied to those pods (their answers are dropped).
  for (const p of split.mirror ?? []) ctx.stdout(line(p, 'mirror copy to '));
}

function request(o: SimulateOptions): SimRequest {
  return {
    ...(o.host ? { host: o.host } : {}),
    path: o.path ?? '/',
    headers: pairs(o.header, true),
    cookies: pairs(o.cookie),
    query: pairs(o.query),
  };
}

function pairs(list: readonly string[] | undefined, lower = false): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list ?? []) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new InputError([], `"${item}" must be key=value`);
    out[lower ? item.slice(0, eq).toLowerCase() : item.slice(0, eq)] = item.slice(eq + 1);
  }
  return out;
}
