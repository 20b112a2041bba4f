import { isObject, KubeObject } from '../../src/model/kube';
import { ingressClass } from '../_kit/ingress';
import { LISTEN_PORTS } from './annotations';

/**
 * Which ALB listeners an Ingress's rules land on. An Ingress reaches an ALB instance through its
 * IngressClass, whose `spec.parameters` name an `AlbConfig` (one AlbConfig = one ALB); it lands on
 * the listeners of `alb.ingress.kubernetes.io/listen-ports` (JSON `[{"HTTP": 80}, {"HTTPS": 443}]`),
 * HTTP:80 without it. A listener is protocol + port of one ALB, so its key is `<alb>|<PROTO>:<port>`.
 * When the IngressClass object is not in the repo, the class name stands for the ALB.
 */
export type ListenerResult = { readonly listeners: readonly string[] } | { readonly problem: string };

export const DEFAULT_LISTENERS = ['HTTP:80'];

/** IngressClass name -> AlbConfig name, from every IngressClass object the repo holds. */
export function albConfigsByClass(objects: readonly KubeObject[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const o of objects) {
    if (o.kind !== 'IngressClass' || !isObject(o.spec) || !isObject(o.spec.parameters)) continue;
    const p = o.spec.parameters;
    if (p.kind === 'AlbConfig' && typeof p.name === 'string' && !out.has(o.metadata.name))
      out.set(o.metadata.name, p.name);
  }
  return out;
}

/** The ALB an Ingress belongs to, for keys and messages. */
export function albOf(ingress: KubeObject, albConfigs: ReadonlyMap<string, string>): string {
  const klass = ingressClass(ingress) ?? '<default IngressClass>';
  const config = albConfigs.get(klass);
  return config !== undefined ? `AlbConfig ${config}` : `IngressClass ${klass}`;
}

export function ingressListeners(ingress: KubeObject, albConfigs: ReadonlyMap<string, string>): ListenerResult {
  const ports = listenPorts(ingress.metadata.annotations?.[LISTEN_PORTS]);
  if ('problem' in ports) return ports;
  const alb = albOf(ingress, albConfigs);
  return { listeners: ports.listeners.map((p) => `${alb}|${p}`) };
}

/** `[{"HTTP": 80}, {"HTTPS": 443}]` -> ["HTTP:80", "HTTPS:443"], sorted and unique. */
export function listenPorts(raw: string | undefined): ListenerResult {
  if (raw === undefined) return { listeners: DEFAULT_LISTENERS };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { problem: `${LISTEN_PORTS} is not JSON; write it as [{"HTTP": 80}, {"HTTPS": 443}]` };
  }
  const out = new Set<string>();
  for (const entry of Array.isArray(parsed) ? parsed : [undefined]) {
    const pairs = isObject(entry) ? Object.entries(entry) : [];
    if (pairs.length !== 1 || !isPort(pairs[0][1])) {
      return {
        problem: `${LISTEN_PORTS} entries must each be {"<PROTOCOL>": <port>}, e.g. [{"HTTP": 80}, {"HTTPS": 443}]`,
      };
    }
    out.add(`${pairs[0][0].toUpperCase()}:${Number(pairs[0][1])}`);
  }
  return out.size > 0 ? { listeners: [...out].sort() } : { problem: `${LISTEN_PORTS} lists no listener` };
}

function isPort(value: unknown): boolean {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 65535;
}

/** `IngressClass alb|HTTP:80` -> `HTTP:80 of IngressClass alb`, for messages. */
export function describeListener(listener: string): string {
  const bar = listener.lastIndexOf('|');
  return `listener ${listener.slice(bar + 1)} of ${listener.slice(0, bar)}`;
}
