import * as path from 'path';
import { StateError } from '../errors';
import { readAppHistories } from '../flow/history';
import { flowEdges } from '../flow/edges';
import { gateFor, targetOf } from '../flow/target';
import { gitTopLevel } from '../io/git';
import { Gate } from '../model/plan';
import { LoadedApp } from '../spec/loaded-app';
import type { PendingWrite } from '../app/next-output';
import { RunContext } from '../app/context';

/**
 * Local git mode respects gates as the PR flow does: `advance --commit` does not pass a pause that
 * has not passed. A manual pause waits for `promote`; a timed one counts from the commit that landed
 * the current step (the same history reading as the PR flow). Returns why an app is held, or undefined.
 */
export function localGateHold(ctx: RunContext, app: LoadedApp, w: PendingWrite): string | undefined {
  const gate = gateFor(app, w.before.status, w.transition, 'person');
  if (gate.kind === 'automatic') return undefined;
  const target = targetOf(w.before.status, w.transition, w.command);
  const what = target.kind === 'step' ? `step ${target.step}` : target.kind;
  // Only a progressing rollout can be promoted; the removal after an abort just waits its delay out.
  const override =
    target.kind === 'remove'
      ? `run \`rollgen advance ${w.app} --commit\` again once it has passed`
      : `\`rollgen promote ${w.app} --commit\` passes it now`;
  if (gate.kind === 'manual')
    return `${w.app}: ${what} waits for a manual gate (a pause without duration); ${override}`;
  return timedHold(ctx, w, gate, what, override);
}

function timedHold(
  ctx: RunContext,
  w: PendingWrite,
  gate: Extract<Gate, { kind: 'timed' }>,
  what: string,
  override: string,
): string | undefined {
  const edges = flowEdges(ctx);
  const top = gitTopLevel(edges.git, path.resolve(w.output));
  const output = path.resolve(w.output);
  // Only the landing date is read; the output stands in for the source, whose dates it does not need.
  const landed = top ? readAppHistories(edges.git, top, [{ source: output, output }])[0].landedAt : undefined;
  if (!landed)
    return `${w.app}: ${what} waits ${gate.seconds}s from the commit that landed the current step, and it is not committed; ${override}`;
  const left = Math.ceil((landed.getTime() + gate.seconds * 1000 - edges.now().getTime()) / 1000);
  if (left <= 0) return undefined;
  return `${w.app}: ${what} waits for a timed gate of ${gate.seconds}s from ${landed.toISOString()}: ${left}s left; ${override}`;
}

/** Throws the held apps' reasons (exit 1) once the others are done. */
export function reportHeld(held: readonly string[]): void {
  if (held.length > 0) throw new StateError(`gate not passed:\n${held.map((h) => `  ${h}`).join('\n')}`);
}
