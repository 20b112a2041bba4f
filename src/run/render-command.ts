import { InputError } from '../errors';
import { renderApp } from '../render/render-app';
import { checkRendered } from '../io/validate-k8s';
import { transitionApp } from '../state/app-state';
import { statesAtStep } from '../state/render-states';
import { serializeDocuments } from '../yaml/serialize';
import { readAppOutput } from '../app/output-state';
import { CommonOptions, RunContext } from '../app/context';
import { loadRepo } from '../app/load-repo';

export interface RenderOptions extends CommonOptions {
  readonly step?: number;
}

/** Prints the manifests of one state as multi-document YAML; writes nothing. */
export async function renderCommand(ctx: RunContext, args: readonly string[], opts: RenderOptions): Promise<void> {
  const { apps, peers } = await loadRepo(ctx, args, opts);
  if (apps.length !== 1)
    throw new InputError([], `render prints one app; name one of: ${apps.map((a) => a.loc.name).join(', ')}`);
  const [{ loc, app, output: read }] = apps;
  const output = readAppOutput(ctx, loc, app, peers, read);
  const states =
    opts.step !== undefined
      ? statesAtStep(app, output, opts.step, loc.track)
      : transitionApp(app, output, { kind: 'advance' }, loc.track, loc.removal).states;
  const objects = renderApp(app, states, loc.track, peers);
  checkRendered(objects);
  ctx.stdout(serializeDocuments(objects));
}
