/**
 * What the GitHub flow did to pull requests, for the Action's outputs and job summary. The flow
 * (`rollgen pr`) calls `RunContext.report` once per PR it opens, updates, merges or closes; the
 * Action gathers the events with buildActionReport. The CLI leaves `report` unset.
 */
/** `waiting`: the PR stays open; `reason` says what its gate awaits (a person, health, analysis, time, checks). */
export type PullRequestAction = 'opened' | 'updated' | 'merged' | 'closed' | 'waiting';

export interface PullRequestEvent {
  /** App name from rollgen.yaml. */
  readonly app: string;
  readonly action: PullRequestAction;
  readonly number: number;
  /** The PR's web URL. */
  readonly url: string;
  /** What the PR does, from its branch: "step 2", "adopt", "promote", "cleanup", "abort", ... */
  readonly step?: string;
  /** For `waiting`: what the PR waits for. */
  readonly reason?: string;
}

/** An app `rollgen pr` left for the next run, which takes it first: its request budget was spent. */
export interface DeferredApp {
  readonly app: string;
  readonly reason: string;
}

/** The PR an app would get now (`--dry-run --offline`); all null when the app has none to propose. */
export interface PullRequestPreview {
  readonly app: string;
  readonly branch: string | null;
  readonly title: string | null;
  readonly labels: readonly string[];
  readonly body: string | null;
}

/** The Action's result: the events grouped by what happened, in the order they happened. */
export interface ActionReport {
  readonly opened: readonly PullRequestEvent[];
  readonly updated: readonly PullRequestEvent[];
  readonly merged: readonly PullRequestEvent[];
  readonly closed: readonly PullRequestEvent[];
  readonly waiting: readonly PullRequestEvent[];
  /** Apps whose PRs wait for the next run (the run's request budget was spent). */
  readonly deferred: readonly DeferredApp[];
  /** The fleet matrix after a `rollgen pr` run with waves, as Markdown. */
  readonly fleet?: string;
}

export function buildActionReport(
  events: readonly PullRequestEvent[],
  deferred: readonly DeferredApp[] = [],
  fleet?: string,
): ActionReport {
  const of = (action: PullRequestAction) => events.filter((e) => e.action === action);
  return {
    opened: of('opened'),
    updated: of('updated'),
    merged: of('merged'),
    closed: of('closed'),
    waiting: of('waiting'),
    deferred,
    ...(fleet ? { fleet } : {}),
  };
}
