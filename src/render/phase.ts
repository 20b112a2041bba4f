/** Which state of one rollout to render. Aborted renders as stable: the canary is gone, routes point at stable. */
export type RenderPhase =
  | { readonly kind: 'stable' }
  | { readonly kind: 'adopting' }
  | { readonly kind: 'step'; readonly step: number }
  /** pingPong: the rollout swaps Services (the status records a side), so promotion moves all traffic to the canary. */
  | { readonly kind: 'promoting'; readonly step: number; readonly pingPong?: boolean }
  /** Two-commit removal: routes to stable only while the canary workloads of `step` stay for one more commit. */
  | { readonly kind: 'draining'; readonly step: number; readonly promotion?: boolean };

/** A short name of the state for messages: "step 2", "promoting", "stable", ... */
export function phaseLabel(p: RenderPhase): string {
  return p.kind === 'step' ? `step ${p.step}` : p.kind;
}

/** `names`: the steps' own names where they have one (blue-green: preview, switch), shown beside the number. */
export function describePhase(p: RenderPhase, steps: number, names: readonly (string | undefined)[] = []): string {
  switch (p.kind) {
    case 'stable':
      return 'stable only';
    case 'adopting':
      return 'adopting (track label on pods, selectors unchanged)';
    case 'step':
      return `step ${p.step} of ${steps}${names[p.step - 1] ? ` (${names[p.step - 1]})` : ''}`;
    case 'promoting':
      if (p.pingPong)
        return 'promoting (all traffic to the canary Service, canary at full size; stable pods move at clean-up)';
      return steps === 0
        ? 'promoting (no canary steps: the stable Deployment rolls to the new version)'
        : `promoting (stable gets the new version; traffic as in step ${p.step})`;
    case 'draining':
      return 'draining (routes to stable only; canary workloads are removed by the next advance)';
  }
}
