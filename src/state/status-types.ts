import { Gate, Plan, StrategyName } from '../model/plan';
import { RolloutStatus } from './status';

/** The data of `rollgen status` (status-view.ts builds it): plain JSON, printed as is by `status -o json`. */

/** Named as `kubectl argo rollouts` names them, plus the states only a git-driven rollout has. */
export type ViewPhase =
  | 'NotDeployed'
  | 'Adopting'
  | 'Healthy'
  | 'Progressing'
  | 'Paused'
  | 'Promoting'
  | 'Draining'
  | 'Aborted'
  | 'Held';

export interface ContainerImage {
  readonly container: string;
  readonly image: string;
}

/** What the GitOps engine reported for the live step, and the step's analysis, as src/flow records them. */
export interface GateSignalsView {
  readonly health: { readonly state: 'healthy' | 'waiting' | 'failed'; readonly detail: string } | null;
  readonly analysis: { readonly verdict: string; readonly detail: string } | null;
  /** rollgen.yaml `verify.aws`, read live: the ALB's weights, and the serving target groups' pod IPs. */
  readonly verify?: {
    readonly weights: VerifyView | null;
    readonly targetGroupIPs: VerifyView | null;
  };
}

export interface VerifyView {
  readonly state: 'verified' | 'waiting';
  readonly detail: string;
}

/** The open PR of an app, as the PR flow named it. */
export interface PendingPull {
  readonly number: number;
  readonly url: string;
  readonly title: string;
  /** What it does: "step 2", "promote", "abort", ... */
  readonly does: string;
  /** The code host's own short reference (GitHub and Gitea `#12`, GitLab `!12`). */
  readonly ref?: string;
}

/** The code host a flow read talks to: its name in status lines (`github` in the JSON key, whichever it is). */
export type ForgeName = 'github' | 'gitlab' | 'gitea';

export type GitHubView =
  | { readonly looked: false; readonly why: string }
  | { readonly looked: true; readonly pulls: readonly PendingPull[]; readonly forge?: ForgeName };

/** A Deployment of the output as rendered: what runs on one track. */
export interface RenderedWorkload {
  readonly images: readonly ContainerImage[];
  /** Its `rollgen.dev/revision`; null when it carries none. */
  readonly revision: string | null;
  readonly replicas: number;
}

/**
 * How the user moves the app (status-mode.ts): `local` writes files and the person running it is the
 * gate, `commit` is local git mode (`--commit`, which waits for gates), `pr` the GitHub PR flow.
 */
export interface ModeView {
  readonly name: 'local' | 'commit' | 'pr';
  /** What told it: `--pr`, the output's last commit, changes not committed, ... */
  readonly why: string;
}

export interface StatusInput {
  readonly app: string;
  readonly namespace?: string;
  /** How the user names the app on the command line ("web", or "apps/web deploy/web"). */
  readonly target: string;
  readonly plan: Plan;
  readonly status: RolloutStatus | undefined;
  readonly sourceRevision: string;
  /** The stable and canary Deployments in the output (null: not there): images, revisions and replicas come from them. */
  readonly workloads: { readonly stable: RenderedWorkload | null; readonly canary: RenderedWorkload | null };
  readonly sourceImages: readonly ContainerImage[];
  readonly mode: ModeView;
  /** When the current state landed (the commit that last changed the status file); undefined when not committed. */
  readonly landedAt: Date | undefined;
  readonly now: Date;
  readonly signals: GateSignalsView | null;
  readonly github: GitHubView;
  readonly drift: readonly string[];
}

export interface GateView {
  /** What the gate stands before: "step 3", "promote", "clean-up", ... */
  readonly before: string;
  readonly kind: Gate['kind'];
  readonly seconds: number | null;
  /** Timed gates: when the count started (the landing) and the seconds left; null when not counting. */
  readonly since: string | null;
  readonly remaining: number | null;
  readonly passed: boolean;
  /** Analyses that must pass at this gate too (their templates), besides its own kind. */
  readonly analysis: readonly string[];
  readonly detail: string;
}

/** The live canary routing: its weight, the requests its matches send (null: none), and a shared TrafficRouting's. */
export interface TrafficView {
  readonly weight: number;
  readonly weightTotal: number;
  readonly byPods: boolean;
  readonly matches: string | null;
  readonly mirror: string | null;
  readonly sharedRouting: { readonly name: string; readonly weight: number; readonly matches: string | null } | null;
}

export interface NextCommand {
  readonly command: string;
  readonly does: string;
}

export interface RolloutView {
  readonly app: string;
  readonly rollout: string;
  readonly namespace: string | null;
  readonly phase: ViewPhase;
  readonly message: string;
  readonly strategy: {
    readonly format: string;
    /** canary, partition or blue-green: the strategy as users name it (`style` is the workload arrangement only). */
    readonly name: StrategyName;
    /** Argo canary.pingPong: the two Services swap the stable and canary roles at each clean-up. */
    readonly pingPong: boolean;
    readonly style: string;
    readonly blueGreen: boolean;
    readonly providers: readonly string[];
  };
  readonly step: number | null;
  /** The live step's name (blue-green: `preview`, `switch`); null for numbered canary steps. */
  readonly stepName: string | null;
  readonly steps: number;
  readonly traffic: TrafficView | null;
  readonly replicas: { readonly desired: number; readonly stable: number; readonly canary: number };
  readonly revisions: { readonly stable: string | null; readonly canary: string | null; readonly source: string };
  readonly images: {
    readonly stable: readonly ContainerImage[] | null;
    readonly canary: readonly ContainerImage[] | null;
    readonly source: readonly ContainerImage[];
  };
  /** An aborted rollout: the revision held back, the step it had reached (null: not recorded) and its images (null: no longer known). */
  readonly aborted: {
    readonly revision: string;
    readonly step: number | null;
    readonly images: readonly ContainerImage[] | null;
  } | null;
  readonly sourceChanged: boolean;
  readonly gate: GateView | null;
  readonly signals: GateSignalsView | null;
  readonly github: GitHubView;
  readonly mode: ModeView;
  readonly next: NextCommand | null;
  readonly otherCommands: readonly NextCommand[];
  readonly drift: readonly string[];
}
