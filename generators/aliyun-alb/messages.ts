import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import { ORDER } from './annotations';
import { describeListener } from './listener';
import type { Failure, HeldOrder } from './orders';

const SHOWN_PER_APP = 4;

/**
 * One error per stable Ingress whose canaries find no order: where (the stable's order), which apps
 * hold the orders in the way and how to make room.
 */
export function describeFailure(f: Failure): Diagnostic {
  const d = f.demand;
  const canaries = d.slots.map((s) => `"${s}"`).join(' and ');
  const where = d.listeners.map(describeListener).join(', ');
  const head = `app ${d.app}, rollout ${d.rollout}: no free ${ORDER} for canary Ingress ${canaries} of Ingress "${d.ingress}" (order ${d.bound}) on ${where}`;
  const why =
    d.bound <= 1
      ? `Ingress "${d.ingress}" holds order 1, so no canary rule can rank before it`
      : `orders 1-${d.bound - 1} are held by ${holders(f.blockers)}`;
  return diagnosticAt(d.origin, `${head}: ${why}; fix: ${fix(f)}`);
}

function fix(f: Failure): string {
  const d = f.demand;
  const others = [...new Set(f.blockers.map((b) => b.app))].filter((a) => a !== d.app);
  const raise =
    f.suggestion !== undefined
      ? `raise Ingress "${d.ingress}" to ${ORDER}: "${f.suggestion}" (lower wins) so its canaries fit before it`
      : `move Ingress "${d.ingress}" to a listener with free orders`;
  const free = others.length > 0 ? `, or free orders below ${d.bound} in app ${others.join(', app ')}` : '';
  return raise + free;
}

/** `app b (Ingress "x" order 3 at f:1:2, ...), app c (...)`. */
function holders(blockers: readonly HeldOrder[]): string {
  const apps = [...new Set(blockers.map((b) => b.app))];
  return apps
    .map((app) => {
      const own = blockers.filter((b) => b.app === app);
      const shown = own
        .slice(0, SHOWN_PER_APP)
        .map((b) => `${b.what} order ${b.order} at ${b.origin.file}:${b.origin.line}`);
      const more = own.length > SHOWN_PER_APP ? `, ${own.length - SHOWN_PER_APP} more` : '';
      return `app ${app} (${shown.join(', ')}${more})`;
    })
    .join(', ');
}
