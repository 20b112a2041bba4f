/**
 * Test seam for crash safety: `ROLLGEN_TEST_CRASH_AT=N` kills the process with SIGKILL at the N-th
 * write point of the run (`=name` at the first point of that name), so a test can stop a real run
 * at every instant a write can be interrupted and assert what the next run recovers. Unset, it does nothing.
 */
let hits = 0;

export function crashPoint(name: string): void {
  const at = process.env.ROLLGEN_TEST_CRASH_AT;
  if (!at) return;
  hits += 1;
  if (at !== String(hits) && at !== name) return;
  process.stderr.write(`crash point ${hits}: ${name}\n`); // synchronous on pipes and files
  process.kill(process.pid, 'SIGKILL');
}
