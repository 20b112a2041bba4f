import { scanScope } from '../../src/flow/pr-command';

/** One PR scan for all apps: open PRs always; closed ones only for apps with something pending, since they could matter. */
describe('scanScope', () => {
  const at = (iso: string) => new Date(iso);

  test('GIVEN no app with anything to propose THEN open PRs only', () => {
    expect(scanScope([undefined, undefined])).toEqual({ prefix: 'rollgen/', state: 'open' });
  });

  test('GIVEN pending apps THEN closed PRs back to the oldest date a PR could matter from, less an hour for clock skew', () => {
    expect(
      scanScope([{ pullsSince: at('2026-03-02T10:00:00Z') }, undefined, { pullsSince: at('2026-03-01T10:00:00Z') }]),
    ).toEqual({
      prefix: 'rollgen/',
      state: 'all',
      closedSince: at('2026-03-01T09:00:00Z'),
    });
  });

  test('GIVEN a pending app whose history is unknown (shallow clone) THEN the whole history', () => {
    expect(scanScope([{ pullsSince: at('2026-03-02T10:00:00Z') }, {}])).toEqual({ prefix: 'rollgen/', state: 'all' });
  });
});
