import * as path from 'path';
import { readOutput } from '../app/inputs';
import type { LoadedEntry } from '../app/load-repo';
import type { AwsVerifyConfig } from '../io/config-verify';
import { AwsTarget, readAlb, readRegisteredTargets } from '../io/aws/elbv2';
import { readReadyEndpoints } from '../io/kube/endpoint-slices';
import { KubeObject, isObject } from '../model/kube';
import type { FileChange } from '../scm/types';
import { parseYamlStream } from '../yaml/parse';
import {
  AlbIngress,
  Backend,
  VerifyResult,
  albIngresses,
  combineResults,
  judgeTargets,
  judgeWeights,
  endsPods,
  workloadPods,
} from './aws-verify';

type Env = Readonly<Record<string, string | undefined>>;

/** The verifications of the step the base carries (undefined: off, or nothing to verify at this step). */
export interface VerifyGate {
  /** The ALB forwards with the committed weights. */
  readonly weights?: VerifyResult;
  /** The serving target groups hold every ready endpoint IP; read before a step that scales pods down. */
  readonly targetGroupIPs?: VerifyResult;
}

export interface VerifyRequest {
  readonly entry: LoadedEntry;
  readonly cwd: string;
  readonly env: Env;
  /** Weights are read once the step is live (landed, and healthy where a health gate is set). */
  readonly live: boolean;
  /** The next commit's files (repository paths under `repoRoot`): IPs are verified when it scales pods down; undefined: always. */
  readonly next?: { readonly changes: readonly FileChange[]; readonly repoRoot: string };
}

/**
 * Reads AWS (and the cluster's EndpointSlices) for an app with `verify.aws`: the weights of every
 * forward action of its ALB Ingresses, and, before a scale-down, the target groups of the Services
 * they serve. Reads only; every AWS or Kubernetes error is a wait, said in the result.
 */
export async function readVerify(r: VerifyRequest): Promise<VerifyGate | undefined> {
  const cfg = r.entry.loc.verify?.aws;
  if (!cfg || !r.entry.loc.output) return undefined;
  const output = readOutput(r.entry.loc, r.cwd);
  const objects = output.resources.items.map((i) => i.object);
  const ingresses = albIngresses(objects);
  if (ingresses.length === 0) return undefined;
  const target = { region: cfg.region, env: r.env, ...(cfg.cluster ? { cluster: cfg.cluster } : {}) };
  // One read of each load balancer per run, for both checks.
  const read = new Map<string, ReturnType<typeof readAlb>>();
  const aws: AlbSource = {
    target,
    alb: (stack) => read.get(stack) ?? (read.set(stack, readAlb(target, stack)), read.get(stack)!),
  };
  const weighted = ingresses.filter((i) => i.actions.length > 0);
  const weights =
    cfg.weights && r.live && weighted.length > 0
      ? combineResults(
          await Promise.all(
            weighted.map(async (ing) => {
              const alb = await aws.alb(ing.stack);
              return 'ok' in alb ? judgeWeights(ing, alb.ok) : waiting(ing, alb.error);
            }),
          ),
        )
      : undefined;
  // The Services that serve once the next commit lands: their target groups must hold their pods.
  const after = r.next ? objectsAfter(r, output.texts) : objects;
  const scaling = r.next === undefined || endsPods(workloadPods(objects), workloadPods(after));
  const ips =
    cfg.targetGroupIPs && scaling ? await verifyTargets(cfg, aws, albIngresses(after), after, r.env) : undefined;
  if (!weights && !ips) return undefined;
  return { ...(weights ? { weights } : {}), ...(ips ? { targetGroupIPs: ips } : {}) };
}

/** Where the load balancers are read: the app's region and cluster, each stack read once. */
interface AlbSource {
  readonly target: AwsTarget;
  readonly alb: (stack: string) => ReturnType<typeof readAlb>;
}

const waiting = (ing: AlbIngress, why: string): VerifyResult => ({
  state: 'waiting',
  detail: `Ingress ${ing.namespace}/${ing.name}: ${why}`,
});

async function verifyTargets(
  cfg: AwsVerifyConfig,
  aws: AlbSource,
  ingresses: readonly AlbIngress[],
  objects: readonly KubeObject[],
  env: Env,
): Promise<VerifyResult | undefined> {
  const results: VerifyResult[] = [];
  for (const ing of ingresses.filter((i) => i.ipTargets)) {
    // Services of the app's own output: those are the ones whose pods a step scales down.
    const own = ing.serving.flatMap((b) => {
      const port = servicePortName(objects, ing.namespace, b);
      return port === undefined ? [] : [{ b, port }];
    });
    if (own.length === 0) continue;
    const alb = await aws.alb(ing.stack);
    if ('error' in alb) {
      results.push(waiting(ing, alb.error));
      continue;
    }
    for (const { b, port } of own) results.push(await verifyBackend(cfg, aws, ing, b, port, alb.ok.targetGroups, env));
  }
  return combineResults(results);
}

async function verifyBackend(
  cfg: AwsVerifyConfig,
  aws: AlbSource,
  ing: AlbIngress,
  b: Backend,
  port: string,
  groups: ReadonlyMap<string, string>,
  env: Env,
): Promise<VerifyResult> {
  const arn = groups.get(b.resource);
  if (!arn) return waiting(ing, `the ALB has no target group ${b.resource} (yet)`);
  const ready = await readReadyEndpoints(cfg.kubeconfig, env, ing.namespace, b.service, port);
  if ('error' in ready) return waiting(ing, ready.error);
  const registered = await readRegisteredTargets(aws.target, arn);
  if ('error' in registered) return waiting(ing, registered.error);
  return judgeTargets(b, ready.ok, registered.ok);
}

/** The name of the Service port a backend names ('' when unnamed); undefined when the Service is not in the output. */
function servicePortName(objects: readonly KubeObject[], namespace: string, b: Backend): string | undefined {
  const svc = objects.find(
    (o) => o.kind === 'Service' && o.metadata.name === b.service && (o.metadata.namespace ?? 'default') === namespace,
  );
  const ports = svc && isObject(svc.spec) && Array.isArray(svc.spec.ports) ? svc.spec.ports.filter(isObject) : [];
  const p = ports.find((x) => String(x.port) === b.port || x.name === b.port);
  return p ? String(p.name ?? '') : undefined;
}

/** The output's objects once the next commit's files replace its files. */
function objectsAfter(r: VerifyRequest, texts: ReadonlyMap<string, string> | undefined): KubeObject[] {
  const files = new Map(texts ?? []);
  const dir = path.relative(r.next!.repoRoot, path.resolve(r.cwd, r.entry.loc.output!)).split(path.sep).join('/');
  for (const c of r.next!.changes) {
    if (path.posix.dirname(c.path) !== dir) continue;
    const name = path.posix.basename(c.path);
    if (c.content === null) files.delete(name);
    else files.set(name, c.content);
  }
  const objects = [...files].flatMap(([name, text]) =>
    /\.ya?ml$/.test(name)
      ? parseYamlStream(name, text)
          .documents.map((d) => d.value)
          .filter((v): v is KubeObject => isObject(v) && typeof v.kind === 'string' && isObject(v.metadata))
      : [],
  );
  return objects;
}
