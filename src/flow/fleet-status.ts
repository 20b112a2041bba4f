import type { WaveConfig } from '../io/config-waves';
import type { RolloutView } from '../state/status-types';

/**
 * `status` of a fleet (docs/fleet.md): targets down, waves across, each target's cell under its wave
 * holding its phase and step, then the command that moves the fleet on. Empty when no shown app is
 * in a wave.
 */
export function formatFleetMatrix(waves: readonly WaveConfig[], views: readonly RolloutView[]): string {
  const rows = waves.flatMap((w, i) => w.targets.map((t) => ({ app: t, wave: i })));
  const shown = rows.filter((r) => views.some((v) => v.app === r.app));
  if (shown.length === 0) return '';
  const table = [
    ['FLEET', ...waves.map((w, i) => `${i + 1} ${w.name}`)],
    ...shown.map((r) => [r.app, ...waves.map((_, i) => (i === r.wave ? cell(views, r.app) : '-'))]),
  ];
  const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
  const lines = table.map((row) =>
    row
      .map((text, c) => text.padEnd(widths[c]))
      .join('  ')
      .trimEnd(),
  );
  return `${lines.join('\n')}\n(* the source has a new revision for it)\nnext: ${nextFleetCommand(waves, views)}\n`;
}

/** Phase and step of each rollout of the app, `*` when its source has a revision not rolled out. */
function cell(views: readonly RolloutView[], app: string): string {
  return views
    .filter((v) => v.app === app)
    .map((v) => `${v.phase}${v.step !== null ? ` ${v.step}/${v.steps}` : ''}${v.sourceChanged ? '*' : ''}`)
    .join(', ');
}

const settled = (v: RolloutView) => v.phase === 'Healthy' && !v.sourceChanged;

/** What moves the fleet on: advance of the live wave, retry of a failed target, or nothing. */
function nextFleetCommand(waves: readonly WaveConfig[], views: readonly RolloutView[]): string {
  for (const w of waves) {
    const own = views.filter((v) => w.targets.includes(v.app));
    const failed = own.filter((v) => v.phase === 'Aborted');
    if (failed.length > 0)
      return `wave ${w.name} failed (${failed.map((v) => v.app).join(', ')} aborted): fix the source, or \`rollgen retry ${failed[0].app} --commit\`; later waves wait`;
    if (!own.every(settled)) return `\`rollgen advance --commit\` moves wave ${w.name} one step`;
  }
  return 'every wave runs the source; a new revision starts at wave 1';
}
