import * as path from 'path';
import type { RolloutStatus } from '../state/status';
import type { PendingWrite } from './next-output';
import type { PullRequestEvent, PullRequestPreview } from './report';
import type { RunContext } from './context';
import { OutputOptions, carryError, errorDocument, isMachineOutput, printDocument } from './output-format';

/**
 * The machine-readable report of advance/abort/promote/retry (any mode) and `rollgen pr`: every
 * rollout that moved (from the write itself, not its text), every PR touched, and the lines the
 * text output would have printed. Commands run against a capturing context; this prints the document.
 */
export interface RolloutMove {
  readonly app: string;
  readonly rollout: string;
  readonly action: string;
  readonly from: RolloutStatus | null;
  readonly to: RolloutStatus | null;
  readonly output: string;
}

export function movesOf(w: PendingWrite, cwd: string): RolloutMove[] {
  return w.transition.actions.map((a) => ({
    app: w.app,
    rollout: a.rollout,
    action: a.action,
    from: w.before.status?.rollouts.find((r) => r.name === a.rollout) ?? null,
    to: w.transition.status.rollouts.find((r) => r.name === a.rollout) ?? null,
    output: path.relative(cwd, w.output) || '.',
  }));
}

/**
 * Runs `work` with stdout captured, every write and PR event recorded, then prints one document.
 * Under text output it is `work(ctx)` unchanged.
 */
export async function withReport(
  ctx: RunContext,
  opts: OutputOptions,
  kind: 'ChangeReport' | 'PullRequestReport',
  head: Readonly<Record<string, unknown>>,
  work: (ctx: RunContext) => Promise<void>,
): Promise<void> {
  if (!isMachineOutput(opts)) return work(ctx);
  let text = '';
  const moves: RolloutMove[] = [];
  const pulls: PullRequestEvent[] = [];
  const previews: PullRequestPreview[] = [];
  let failure: unknown;
  try {
    await work({
      ...ctx,
      stdout: (t) => void (text += t),
      written: (w) => moves.push(...movesOf(w, ctx.cwd)),
      preview: (p) => void previews.push(p),
      report: (e) => {
        pulls.push(e);
        ctx.report?.(e);
      },
    });
  } catch (e) {
    failure = e;
  }
  const messages = text.split('\n').filter((l) => l !== '');
  // `rollgen pr` writes through the code host only: its report has the PRs, no local moves.
  const local = kind === 'ChangeReport' ? { moves } : {};
  // `--offline` previews the PRs instead of opening them: title and body as fields, not message lines.
  const preview = previews.length > 0 ? { previews } : {};
  // A failure after some apps moved (a gate held one, the host refused another) is in the same
  // document as what did move, so a script never reads "error" where writes were made.
  const error = failure === undefined ? {} : errorDocument(failure);
  printDocument(ctx, opts.output, kind, { ...head, ...local, pullRequests: pulls, ...preview, messages, ...error });
  if (failure !== undefined) {
    carryError(failure);
    throw failure;
  }
}
