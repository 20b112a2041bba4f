import type { WaveConfig } from '../io/config-waves';
import type { RolloutStatus } from '../state/status';
import type { Action } from './decide';
import { waveOf } from './fleet-proposal';
import { fleetTable, markdownTable, padded } from './fleet-status';

/** A target as the run's matrix shows it: its rollouts on the base, and whether it has a move pending. */
export interface MatrixTarget {
  readonly app: string;
  readonly rollouts: readonly RolloutStatus[];
  readonly pending: boolean;
}

/**
 * The fleet after one `rollgen pr` run (docs/fleet.md): targets down, waves across, each cell the
 * phase and step the base carries, and a last row with what the run did with each wave's PR. As
 * text for the log and as Markdown for the Action's job summary. Empty without targets. Pure.
 */
export function runMatrix(
  waves: readonly WaveConfig[],
  targets: readonly MatrixTarget[],
  rounds: readonly { readonly app: string; readonly actions: readonly Action[] }[],
): { text: string; markdown: string } | undefined {
  const cells = new Map(targets.map((t) => [t.app, cellOf(t)] as const));
  const pulls = new Map<string, string>();
  for (const r of rounds) {
    const wave = waveOf(r.app);
    const said = wave !== undefined ? describe(r.actions) : undefined;
    if (wave !== undefined && said) pulls.set(wave, said);
  }
  const table = fleetTable(waves, cells, pulls);
  if (!table) return undefined;
  const note = '(* a move is pending for it)';
  return { text: `${padded(table)}\n${note}\n`, markdown: `#### Fleet\n\n${markdownTable(table)}\n\n${note}\n` };
}

function cellOf(t: MatrixTarget): string {
  const text = t.rollouts.map((r) => `${r.phase}${r.phase === 'Progressing' ? ` ${r.step}/${r.steps}` : ''}`);
  return `${text.join(', ') || 'not deployed'}${t.pending ? '*' : ''}`;
}

/** What the run did with the wave's PR, in a few words. */
function describe(actions: readonly Action[]): string | undefined {
  for (const a of actions) {
    if (a.kind === 'open')
      return `opens ${a.proposal.target.kind === 'step' ? `step ${a.proposal.target.step}` : a.proposal.target.kind}`;
    if (a.kind === 'merge') return `merges ${a.pr.ref}`;
    if (a.kind === 'merge-opened') return 'aborts';
    if (a.kind === 'update' && a.commit) return `updates ${a.pr.ref}`;
  }
  const wait = actions.find((a) => a.kind === 'wait' || a.kind === 'need-checks');
  if (wait?.kind === 'wait') return wait.pr ? `${wait.pr.ref} waits` : 'waits';
  return wait?.kind === 'need-checks' ? `${wait.pr.ref} checks` : undefined;
}
