import { ALL_TRAFFIC, BY_PODS } from '../plan/traffic-label';
import type { Target } from './branch';
import type { RolloutView, TemplateInput } from './template-data';

/** What merging the PR does, in one sentence a reviewer reads next to the table. Pure. */
export function mergeEffect(i: TemplateInput, views: readonly RolloutView[]): string {
  const target = i.target;
  const draining = i.transition.status.rollouts.some((s) => s.draining !== undefined);
  const pingPong = i.app.rollouts.some((r) => r.spec.pingPong);
  if (pingPong && target.kind === 'promote')
    return 'all traffic goes to the canary Service, with the canary at full size; the stable pods keep the old version, without traffic, until clean-up.';
  if (pingPong && target.kind === 'cleanup' && !draining)
    return 'the stable Deployment takes the new version on the Service that now serves all traffic (ping and pong swap), and the canary objects are removed.';
  // removal: two-commits keeps the canary workloads one more commit, after routes have left them.
  if (draining && (target.kind === 'cleanup' || target.kind === 'revert' || target.kind === 'abort')) {
    return 'all traffic goes back to stable; the canary Deployment and Service stay until the next PR removes them.';
  }
  switch (target.kind) {
    case 'step':
      return `Argo CD or Flux applies step ${target.step}: ${stepEffect(i, views)}`;
    case 'adopt':
      return 'the pods get the track label; Service selectors are unchanged until the next PR.';
    case 'select':
      return 'Services select pods by track label.';
    case 'promote':
      return 'the stable Deployment gets the new version while traffic stays as in the last step.';
    case 'cleanup':
      return 'routes go back to stable only and the canary objects are removed.';
    case 'revert':
    case 'abort':
      return 'all traffic goes back to stable and the canary objects are removed.';
    case 'remove':
      return 'the canary Deployment and Service, which no longer receive traffic, are removed.';
    case 'retry':
      return 'the rollout starts again at step 1.';
    case 'update':
      return 'the Deployments of disabled rollouts (spec.disabled) update as written, a plain rolling update with no canary.';
  }
}

/** `2 canary pods start first (stable runs 8 of 10 replicas), then the routes send 20% of traffic to the canary`. */
function stepEffect(i: TemplateInput, views: readonly RolloutView[]): string {
  const moving = i.transition.actions.map((a) => a.rollout);
  const view = views.find((v) => moving.includes(v.name)) ?? views[0];
  const replicas = i.app.rollouts.find((r) => r.spec.name === view?.name)?.plan.replicas;
  if (!view || replicas === undefined) return 'canary pods first, then the routes shown above.';
  const pods = `${view.canaryReplicas} canary ${view.canaryReplicas === 1 ? 'pod starts' : 'pods start'} first (stable runs ${view.stableReplicas} of ${replicas} replicas)`;
  if (view.traffic === BY_PODS) return `${pods}; the Services share traffic by pod count.`;
  if (view.traffic === ALL_TRAFFIC)
    return `${pods}; with no stable pod left, the stable Service selects the canary pods too: the new version serves all traffic.`;
  const matched = view.matches === '-' ? '' : `, and requests matching ${view.matches} go to it`;
  return `${pods}, then the routes send ${view.traffic} of traffic to the canary${matched}.`;
}

/** Blue-green steps say what the Services do; undefined for anything else. */
export function blueGreenEffect(target: Target, names: readonly string[] | undefined): string | undefined {
  if (!names) return undefined;
  const name = target.kind === 'step' ? names[target.step - 1] : target.kind;
  switch (name) {
    case 'preview':
      return 'the new version starts beside the old one; the preview Service (if any) selects it, the active Service keeps the old version.';
    case 'switch':
      return "the new version scales to full size; once its pods are ready, the active Service's selector moves to them in this one commit.";
    case 'promote':
      return 'scale down old: your Deployment, which serves nothing now, replaces the old version with the new one; the active Service moves back to it in the clean-up.';
    default:
      return undefined;
  }
}
