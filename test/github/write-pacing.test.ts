import { pacedGroup } from '../../src/scm/github/octokit';

/**
 * The write pacing a test seam scales (ROLLGEN_TEST_RETRY_UNIT_MS): as Octokit's own write group,
 * one write at a time and each started at least a unit after the one before, also after a failure.
 */
test('GIVEN three writes at once WHEN paced at a unit THEN they run one by one, each a unit after the last', async () => {
  const unit = 40;
  const limiter = pacedGroup(unit).key();
  const spans: [number, number][] = [];
  let running = 0;
  const job = (fail: boolean) => async () => {
    running++;
    expect(running).toBe(1);
    const start = performance.now();
    await new Promise((r) => setTimeout(r, 5));
    spans.push([start, performance.now()]);
    running--;
    if (fail) throw new Error('write refused');
    return start;
  };
  const results = await Promise.allSettled([
    limiter.schedule({}, job(false)),
    limiter.schedule({}, job(true)),
    limiter.schedule({}, job(false)),
  ]);
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect(spans).toHaveLength(3);
  for (let i = 1; i < spans.length; i++) {
    expect(spans[i][0]).toBeGreaterThanOrEqual(spans[i - 1][1]); // after the one before ended
    expect(spans[i][0] - spans[i - 1][0]).toBeGreaterThanOrEqual(unit - 0.5); // a unit after it started, on the monotonic clock (each job reads it a moment after the pacer)
  }
});
