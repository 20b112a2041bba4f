import type { WaveConfig } from '../io/config-waves';
import type { RolloutView } from '../state/status-types';

/**
 * `status` of a fleet (docs/fleet.md): targets down, waves across, each target's cell under its wave
 * holding its phase and step, then the command that moves the fleet on. Empty when no shown app is
 * in a wave.
 */
export function formatFleetMatrix(
  waves: readonly WaveConfig[],
  views: readonly RolloutView[],
  pulls?: ReadonlyMap<string, string>,
): string {
  const shown = new Set(views.map((v) => v.app));
  const cells = new Map([...shown].map((app) => [app, cell(views, app)] as const));
  const table = fleetTable(waves, cells, pulls);
  if (!table) return '';
  const next = pulls ? nextFlowCommand(waves, views, pulls) : nextFleetCommand(waves, views);
  return `${padded(table)}\n(* the source has a new revision for it)\nnext: ${next}\n`;
}

/**
 * The matrix as rows: a header of waves, one row per target of `cells` with its cell under its
 * wave, and with `pulls` (wave name -> its PR now) a last row of each wave's PR. Undefined when no
 * target of the waves has a cell.
 */
export function fleetTable(
  waves: readonly WaveConfig[],
  cells: ReadonlyMap<string, string>,
  pulls?: ReadonlyMap<string, string>,
): string[][] | undefined {
  const rows = waves.flatMap((w, i) => w.targets.filter((t) => cells.has(t)).map((t) => ({ app: t, wave: i })));
  if (rows.length === 0) return undefined;
  return [
    ['FLEET', ...waves.map((w, i) => `${i + 1} ${w.name}`)],
    ...rows.map((r) => [r.app, ...waves.map((_, i) => (i === r.wave ? cells.get(r.app)! : '-'))]),
    ...(pulls ? [['PR', ...waves.map((w) => pulls.get(w.name) ?? '-')]] : []),
  ];
}

/** Columns padded to their widest cell, for a terminal. */
export function padded(table: readonly (readonly string[])[]): string {
  const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
  return table
    .map((row) =>
      row
        .map((text, c) => text.padEnd(widths[c]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The same table in Markdown, for a job summary or a PR body. */
export function markdownTable(table: readonly (readonly string[])[]): string {
  const esc = (t: string) => t.replace(/\|/g, '\\|');
  const [head, ...rest] = table;
  return [head, head.map(() => '---'), ...rest].map((row) => `| ${row.map(esc).join(' | ')} |`).join('\n');
}

/** Phase and step of each rollout of the app, `*` when its source has a revision not rolled out. */
function cell(views: readonly RolloutView[], app: string): string {
  return views
    .filter((v) => v.app === app)
    .map((v) => `${v.phase}${v.step !== null ? ` ${v.step}/${v.steps}` : ''}${v.sourceChanged ? '*' : ''}`)
    .join(', ');
}

const settled = (v: RolloutView) => v.phase === 'Healthy' && !v.sourceChanged;

/** In the GitHub flow: `rollgen pr` moves the live wave, through its PR when one is open. */
function nextFlowCommand(
  waves: readonly WaveConfig[],
  views: readonly RolloutView[],
  pulls: ReadonlyMap<string, string>,
): string {
  const local = nextFleetCommand(waves, views);
  const live = waves.find((w) => local.includes(`wave ${w.name}`));
  if (!live || !local.includes('advance --commit')) return local.replace('--commit', '--pr');
  const [ref, ...does] = (pulls.get(live.name) ?? '').split(' ');
  const pr = ref && (does.length > 0 ? `${ref} (${does.join(' ')})` : ref);
  return pr
    ? `${pr} moves wave ${live.name} one step: merge it, or let \`rollgen pr\` merge it once its gate passes`
    : `\`rollgen pr\` opens the next PR of wave ${live.name}`;
}

/** What moves the fleet on: advance of the live wave, retry of a failed target, or nothing. */
function nextFleetCommand(waves: readonly WaveConfig[], views: readonly RolloutView[]): string {
  for (const w of waves) {
    const own = views.filter((v) => w.targets.includes(v.app));
    const failed = own.filter((v) => v.phase === 'Aborted');
    if (failed.length > 0)
      return `wave ${w.name} failed (${failed.map((v) => v.app).join(', ')} aborted): fix the source, or \`rollgen retry --wave ${w.name} --commit\` (one commit for the wave); later waves wait`;
    if (!own.every(settled)) return `\`rollgen advance --commit\` moves wave ${w.name} one step`;
  }
  return 'every wave runs the source; a new revision starts at wave 1';
}
