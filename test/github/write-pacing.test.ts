import { pacedGroup, type PaceClock } from '../../src/scm/github/octokit';

/**
 * A clock that only moves when slept on, and can fire a sleep early as libuv's timers do: the
 * pacer's order and spacing are checked on it, not on wall time (a loaded machine would skew that).
 */
function fakeClock(earlyBy = 0): PaceClock & { sleeps: number[] } {
  let now = 1000;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += Math.max(1, ms - earlyBy);
    },
  };
}

async function runThree(clock: PaceClock, unit: number) {
  const limiter = pacedGroup(unit, clock).key();
  const spans: [number, number][] = [];
  let running = 0;
  const job = (fail: boolean) => async () => {
    running++;
    expect(running).toBe(1);
    const start = clock.now();
    await clock.sleep(5); // the write itself takes time
    spans.push([start, clock.now()]);
    running--;
    if (fail) throw new Error('write refused');
    return start;
  };
  const results = await Promise.allSettled([
    limiter.schedule({}, job(false)),
    limiter.schedule({}, job(true)),
    limiter.schedule({}, job(false)),
  ]);
  return { results: results.map((r) => r.status), spans };
}

test('GIVEN three writes at once WHEN paced at a unit THEN they run one by one, each a unit after the last', async () => {
  const unit = 40;
  const { results, spans } = await runThree(fakeClock(), unit);
  expect(results).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect(spans).toEqual([
    [1000, 1005],
    [1040, 1045],
    [1080, 1085],
  ]);
});

test('GIVEN timers that fire early WHEN paced THEN the pacer waits again until a whole unit has passed', async () => {
  const unit = 40;
  const clock = fakeClock(3);
  const { spans } = await runThree(clock, unit);
  for (let i = 1; i < spans.length; i++) expect(spans[i][0] - spans[i - 1][0]).toBeGreaterThanOrEqual(unit);
  expect(clock.sleeps.filter((ms) => ms < 5).length).toBeGreaterThan(0); // it slept again for the remainder
});
