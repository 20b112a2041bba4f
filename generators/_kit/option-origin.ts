import type { Origin } from '../../src/diagnostics';
import type { PeerRollout } from '../../src/contract/generator';

/** Where an option field is written (e.g. `rootService`), else the provider block: a diagnostic about it points there. */
export function optionOrigin(ctx: PeerRollout<unknown>, ...field: (string | number)[]): Origin {
  return ctx.locateOption?.(field) ?? ctx.optionsOrigin;
}
