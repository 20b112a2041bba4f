import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from './helpers/cli';

/**
 * Argo blue-green autoPromotionSeconds with autoPromotionEnabled: false: Argo's CompletedBlueGreenPause
 * reads the seconds only while auto-promotion is enabled, so the preview waits for `promote`. rollgen
 * does the same (a manual gate) and says so where the seconds are written.
 */
const EXAMPLE = path.join(__dirname, '..', 'examples', 'argo-blue-green', 'web');
let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function planWith(fields: string) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-bg-gate-'));
  fs.cpSync(EXAMPLE, path.join(dir, 'src'), { recursive: true });
  const file = path.join(dir, 'src', 'rollout.yaml');
  const text = fs.readFileSync(file, 'utf8').replace('      autoPromotionEnabled: false\n', fields);
  fs.writeFileSync(file, text);
  return { r: await runCli(['plan', 'src'], dir), lines: text.split('\n') };
}

test('autoPromotionSeconds with autoPromotionEnabled false: a manual preview gate, warned at autoPromotionSeconds', async () => {
  const { r, lines } = await planWith('      autoPromotionEnabled: false\n      autoPromotionSeconds: 120\n');
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^1 preview +1 +3 +0% +- +- +manual$/m);
  const line = lines.findIndex((l) => l.includes('autoPromotionSeconds')) + 1;
  expect(r.stderr).toBe(
    `src/rollout.yaml:${line}:29: warning: autoPromotionSeconds 120 is ignored because autoPromotionEnabled is false (as Argo): the switch after the preview waits for a person to merge it. Remove autoPromotionSeconds, or remove autoPromotionEnabled for a timed gate of 120 s\n`,
  );
});

test('autoPromotionSeconds alone is a timed preview gate, without a warning', async () => {
  const { r } = await planWith('      autoPromotionSeconds: 120\n');
  expect(r.stdout).toMatch(/^1 preview +1 +3 +0% +- +- +after 120s$/m);
  expect(r.stderr).toBe('');
});
