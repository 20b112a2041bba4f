import { isPlainFileName } from '../model/file-name';
import { isObject } from '../model/kube';
import type { PingPongSide } from '../model/rollout';
import { canonicalJson } from '../render/revision';
import { sha256Hex } from '../render/sha256';

/** Where one rollout stands. Kept in the output's status file, which the kustomization never lists. */
export interface RolloutStatus {
  readonly name: string;
  readonly phase: RolloutPhase;
  /** The current step, 0 when none is live. */
  readonly step: number;
  readonly steps: number;
  readonly stableRevision: string;
  readonly canaryRevision?: string;
  /**
   * Two-commit removal: routes already left the canary of this step; its workloads are still in the
   * output and the next advance removes them.
   */
  readonly draining?: number;
  /** Set with `draining` when the drain follows a promotion: the canary stays as promotion left it (ping-pong: at full size). */
  readonly drainingPromotion?: boolean;
  /** Argo pingPong: which of the two Services is stable now; they swap at each clean-up. */
  readonly pingPong?: PingPongSide;
  /** Aborted: the step the rollout had reached, for status (the step itself is 0 once routes left the canary). */
  readonly abortedStep?: number;
}

export type RolloutPhase = 'Adopting' | 'Healthy' | 'Progressing' | 'Promoting' | 'Aborted';

export interface HistoryEntry {
  readonly rollout: string;
  readonly action: string;
  readonly step: number;
  readonly revision: string;
}

export interface AppStatus {
  readonly app: string;
  readonly rollouts: readonly RolloutStatus[];
  /** Files rollgen owns in the output; other kustomization resources are the user's and kept. */
  readonly files: readonly string[];
  /** Digest of each object file as rollgen wrote it, so a hand edit (drift) is noticed. */
  readonly digests?: Readonly<Record<string, string>>;
  /**
   * As read back: the digest of `rollouts` recorded when rollgen wrote them (statusDocument writes
   * it). A hand edit of a step or a phase would move a rollout past steps it never ran.
   */
  readonly rolloutsDigest?: string;
  readonly history: readonly HistoryEntry[];
}

/** The digest statusDocument records for a status's rollouts. */
export function rolloutsDigest(rollouts: readonly RolloutStatus[]): string {
  return sha256Hex(canonicalJson(rollouts)).slice(0, 16);
}

/** Whether the rollouts were changed by hand since rollgen wrote them (false for a status written before the digest was kept). */
export function rolloutsEdited(s: AppStatus): boolean {
  return s.rolloutsDigest !== undefined && s.rolloutsDigest !== rolloutsDigest(s.rollouts);
}

export const STATUS_FILE = 'rollgen-status.yaml';
export const STATUS_API_VERSION = 'rollgen.dev/v1alpha1';
const HISTORY_LIMIT = 50;
export const LOCAL_CONFIG = 'config.kubernetes.io/local-config';

/** Plain data -> the document written to disk. No timestamps: git history has them. */
export function statusDocument(s: AppStatus): Record<string, unknown> {
  return {
    apiVersion: STATUS_API_VERSION,
    kind: 'RolloutStatus',
    // kpt, Config Sync and `kubectl apply -f DIR` skip local-config objects, so the state is never applied.
    metadata: { name: s.app, annotations: { [LOCAL_CONFIG]: 'true' } },
    rollouts: s.rollouts.map((r) => ({ ...r })),
    rolloutsDigest: rolloutsDigest(s.rollouts),
    files: [...s.files],
    ...(s.digests ? { digests: { ...s.digests } } : {}),
    history: s.history.slice(-HISTORY_LIMIT).map((h) => ({ ...h })),
  };
}

const PHASES: readonly RolloutPhase[] = ['Adopting', 'Healthy', 'Progressing', 'Promoting', 'Aborted'];

/** Reads a status document back; returns a message instead of throwing when it is not one. */
export function parseStatus(value: unknown): AppStatus | string {
  if (!isObject(value) || value.apiVersion !== STATUS_API_VERSION || value.kind !== 'RolloutStatus')
    return `not a ${STATUS_API_VERSION} RolloutStatus`;
  for (const field of ['rollouts', 'files', 'history'])
    if (value[field] !== undefined && !Array.isArray(value[field])) return `${field} must be a list`;
  if (Array.isArray(value.history) && !value.history.every(isObject)) return 'history entries must be maps';
  const rollouts = Array.isArray(value.rollouts) ? value.rollouts : [];
  for (const r of rollouts) {
    if (
      !isObject(r) ||
      typeof r.name !== 'string' ||
      !PHASES.includes(r.phase as RolloutPhase) ||
      typeof r.stableRevision !== 'string'
    ) {
      return 'rollouts[] entries need name, phase and stableRevision';
    }
    const problem = numbersProblem(r);
    if (problem) return `rollout ${r.name}: ${problem}`;
  }
  const files = Array.isArray(value.files) ? value.files : [];
  const badFile = files.findIndex((f) => typeof f !== 'string' || !isPlainFileName(f));
  if (badFile >= 0)
    return `files[${badFile}] ${JSON.stringify(files[badFile])} is not a file name in the output; rollgen writes and deletes only its own files there`;
  const meta = isObject(value.metadata) ? value.metadata : {};
  return {
    app: typeof meta.name === 'string' ? meta.name : '',
    rollouts: rollouts as RolloutStatus[],
    files: files as string[],
    ...(isObject(value.digests) ? { digests: stringMap(value.digests) } : {}),
    ...(typeof value.rolloutsDigest === 'string' ? { rolloutsDigest: value.rolloutsDigest } : {}),
    history: Array.isArray(value.history) ? (value.history as HistoryEntry[]) : [],
  };
}

/**
 * Steps pick what is rendered: a `draining` that is not a step number would render no canary
 * workloads, deleting them in the same commit as the routes that two-commit removal keeps apart.
 */
function numbersProblem(r: Record<string, unknown>): string | undefined {
  const count = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (!count(r.step) || !count(r.steps)) return 'step and steps must be whole numbers';
  if (r.canaryRevision !== undefined && typeof r.canaryRevision !== 'string') return 'canaryRevision must be a string';
  if (r.pingPong !== undefined && r.pingPong !== 'ping' && r.pingPong !== 'pong')
    return 'pingPong must be ping or pong (the Service that is stable)';
  if (r.abortedStep !== undefined && !(count(r.abortedStep) && (r.abortedStep as number) >= 1))
    return 'abortedStep must be the step number (1 or more) the aborted rollout had reached';
  if (r.drainingPromotion !== undefined && typeof r.drainingPromotion !== 'boolean')
    return 'drainingPromotion must be true or false';
  if (r.draining === undefined) return undefined;
  return count(r.draining) && (r.draining as number) >= 1
    ? undefined
    : 'draining must be the step number (1 or more) whose canary workloads are still in the output';
}

function stringMap(value: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}
