import { isObject, KubeObject } from '../../src/model/kube';
import { ingressRules, rulePaths } from '../_kit/ingress';
import { USE_ANNOTATION } from './options';

// The Ingress readers every ingress provider shares.
export { ingressRules, ingressSpec, rulePaths } from '../_kit/ingress';

type Json = Readonly<Record<string, unknown>>;

/** One `spec.rules[rule].http.paths[index]` entry of a networking.k8s.io/v1 Ingress, read defensively. */
export interface AlbPath {
  readonly rule: number;
  readonly index: number;
  readonly host?: string;
  /** As written; undefined when absent (ImplementationSpecific allows that). */
  readonly path?: string;
  readonly pathType: string;
  readonly service?: string;
  /** `backend.service.port.name`, or the number as a string. */
  readonly port?: string;
  readonly raw: Json;
}

/** `backend.service` as {name, port}: port is the port name, or the number as a string. */
export function backendOf(backend: unknown): { service?: string; port?: string } {
  const service = isObject(backend) && isObject(backend.service) ? backend.service : {};
  const port = isObject(service.port) ? service.port : {};
  const portName =
    typeof port.name === 'string' ? port.name : typeof port.number === 'number' ? String(port.number) : undefined;
  return {
    ...(typeof service.name === 'string' ? { service: service.name } : {}),
    ...(portName !== undefined ? { port: portName } : {}),
  };
}

/** Every path of every rule, in document order (the order the ALB controller gives rule priorities). */
export function albPaths(obj: KubeObject): AlbPath[] {
  const out: AlbPath[] = [];
  ingressRules(obj).forEach((rule, ruleIndex) => {
    const host = typeof rule.host === 'string' && rule.host !== '' ? rule.host : undefined;
    rulePaths(rule).forEach((raw, index) => {
      out.push({
        rule: ruleIndex,
        index,
        ...(host !== undefined ? { host } : {}),
        ...(typeof raw.path === 'string' ? { path: raw.path } : {}),
        pathType: typeof raw.pathType === 'string' ? raw.pathType : 'ImplementationSpecific',
        ...backendOf(raw.backend),
        raw,
      });
    });
  });
  return out;
}

/** A path that hands the request to the action annotation `actions.<name>`. */
export function routesToAction(p: { service?: string; port?: string }, name: string): boolean {
  return p.service === name && p.port === USE_ANNOTATION;
}
