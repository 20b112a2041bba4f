import { gateFor, targetOf } from '../../src/flow/target';
import { Gate } from '../../src/model/plan';
import { AppTransition } from '../../src/state/app-state';
import type { LoadedApp } from '../../src/spec/loaded-app';
import { AppStatus, RolloutStatus } from '../../src/state/status';

/** Only what gates read of an app: each rollout's start gate and the gate after each step. */
function app(rollouts: Record<string, Gate[]>): LoadedApp {
  const list = Object.entries(rollouts).map(([name, after]) => ({
    spec: { name },
    plan: { startGate: { kind: 'manual' }, steps: after.map((gate) => ({ gate })) },
  }));
  return { name: 'shop', rollouts: list } as unknown as LoadedApp;
}

const rs = (
  name: string,
  phase: RolloutStatus['phase'],
  step: number,
  steps: number,
  extra: Partial<RolloutStatus> = {},
): RolloutStatus => ({ name, phase, step, steps, stableRevision: 's', canaryRevision: 'c', ...extra });
const status = (...rollouts: RolloutStatus[]): AppStatus => ({ app: 'shop', rollouts, files: [], history: [] });
const moved = (...rollouts: RolloutStatus[]): AppTransition => ({
  status: status(...rollouts),
  actions: rollouts.map((r) => ({ rollout: r.name, action: 'x' })),
  states: [],
});

const timed: Gate = { kind: 'timed', seconds: 60 };
const manual: Gate = { kind: 'manual' };
const auto: Gate = { kind: 'automatic' };

test('a short rollout promoting while a longer one takes a manual step: the step names the PR and its manual gate holds', () => {
  const shop = app({ short: [timed, auto], long: [auto, manual, auto, auto] });
  const before = status(rs('short', 'Progressing', 2, 2), rs('long', 'Progressing', 2, 4));
  const t = moved(rs('short', 'Promoting', 2, 2), rs('long', 'Progressing', 3, 4));
  expect(targetOf(before, t, { kind: 'advance' })).toEqual({ kind: 'step', step: 3 });
  expect(gateFor(shop, before, t)).toEqual(manual);
});

test('each rollout is gated by its own next state: the longest wait wins', () => {
  const shop = app({ a: [{ kind: 'timed', seconds: 600 }, auto], b: [timed, timed, auto] });
  const before = status(rs('a', 'Progressing', 1, 2), rs('b', 'Progressing', 1, 3));
  const t = moved(rs('a', 'Progressing', 2, 2), rs('b', 'Progressing', 2, 3));
  expect(gateFor(shop, before, t)).toEqual({ kind: 'timed', seconds: 600 });
});

test('the second half of a two-commit removal is "remove" and automatic, whatever the phase', () => {
  const shop = app({ a: [manual, auto] });
  for (const phase of ['Healthy', 'Aborted'] as const) {
    const before = status(rs('a', phase, 0, 2, { draining: 2 }));
    const t = moved(rs('a', phase, 0, 2));
    expect(targetOf(before, t, { kind: 'advance' })).toEqual({ kind: 'remove' });
    expect(gateFor(shop, before, t)).toEqual(auto);
  }
});
