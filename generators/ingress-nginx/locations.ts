import { isObject, KubeObject } from '../../src/model/kube';
import { ingressPaths, ingressRules, ingressSpec } from '../_kit/ingress';

/**
 * ingress-nginx's own view of the Ingresses of one class (controller.go createServers): one
 * server per host (`_` is the default server), each with locations that proxy to an upstream
 * `<namespace>-<service>-<port>` (util.go upstreamName: the port number, else its name).
 */

export const DEFAULT_SERVER = '_';
/** The controller's own default backend (a 404), which no canary can attach to. */
export const DEFAULT_UPSTREAM = 'upstream-default-backend';

export interface NginxLocation {
  /** Server name; `_` for rules without a host. */
  readonly host: string;
  readonly path: string;
  readonly pathType: string;
  readonly upstream: string;
  readonly service?: string;
  readonly port?: string;
  /** The Ingress whose annotations the location takes. */
  readonly ingress: KubeObject;
  /** Where the backend is written in `ingress`: a rule path, or `spec.defaultBackend`. */
  readonly at: readonly (string | number)[];
  /** The server's root location, serving what no path matches (the Ingress's defaultBackend). */
  readonly fallback: boolean;
}

export interface NginxServer {
  readonly host: string;
  readonly locations: NginxLocation[];
}

interface Backend {
  readonly service?: string;
  readonly port?: string;
}

function serviceBackend(backend: unknown): Backend {
  const service = isObject(backend) && isObject(backend.service) ? backend.service : {};
  const port = isObject(service.port) ? service.port : {};
  const number = typeof port.number === 'number' && port.number > 0 ? String(port.number) : undefined;
  return {
    ...(typeof service.name === 'string' ? { service: service.name } : {}),
    ...((number ?? (typeof port.name === 'string' ? port.name : undefined)) !== undefined
      ? { port: number ?? String(port.name) }
      : {}),
  };
}

/** util.go upstreamName; undefined for a resource backend (ingress-nginx skips those). */
export function upstreamOf(ingress: KubeObject, backend: unknown, defaultNamespace: string): string | undefined {
  const b = serviceBackend(backend);
  if (b.service === undefined) return undefined;
  return `${ingress.metadata.namespace ?? defaultNamespace}-${b.service}-${b.port ?? 'INVALID'}`;
}

/** The root location of a server first written by `ingress`: its defaultBackend, else the controller's. */
function rootLocation(host: string, ingress: KubeObject | undefined, defaultNamespace: string): NginxLocation {
  const backend = ingress ? ingressSpec(ingress).defaultBackend : undefined;
  const upstream = ingress ? upstreamOf(ingress, backend, defaultNamespace) : undefined;
  const b = serviceBackend(backend);
  return {
    host,
    path: '/',
    pathType: 'Prefix',
    upstream: upstream ?? DEFAULT_UPSTREAM,
    ...(upstream !== undefined ? { ...b } : {}),
    ingress: ingress ?? { apiVersion: 'v1', kind: 'Ingress', metadata: { name: '<controller default>' } },
    at: ['spec', 'defaultBackend'],
    fallback: true,
  };
}

/**
 * The servers of these (non-canary) Ingresses, in order: the first Ingress with a rule for a host
 * creates its server, whose root location goes to that Ingress's defaultBackend until a rule
 * claims `/`; the default server's root is the first Ingress with a defaultBackend and no rules.
 * The first Ingress to write a host+path+pathType keeps it.
 */
export function nginxServers(ingresses: readonly KubeObject[], defaultNamespace = ''): Map<string, NginxServer> {
  const catchAll = ingresses.find((i) => ingressRules(i).length === 0 && ingressSpec(i).defaultBackend);
  const servers = new Map<string, NginxServer>([
    [DEFAULT_SERVER, { host: DEFAULT_SERVER, locations: [rootLocation(DEFAULT_SERVER, catchAll, defaultNamespace)] }],
  ]);
  for (const ingress of ingresses) {
    for (const rule of ingressRules(ingress)) {
      const host = typeof rule.host === 'string' && rule.host !== '' ? rule.host.toLowerCase() : DEFAULT_SERVER;
      if (!servers.has(host)) servers.set(host, { host, locations: [rootLocation(host, ingress, defaultNamespace)] });
    }
  }
  for (const ingress of ingresses) {
    for (const p of ingressPaths(ingress)) {
      const upstream = upstreamOf(ingress, p.raw.backend, defaultNamespace);
      if (upstream === undefined) continue;
      const server = servers.get(p.host ?? DEFAULT_SERVER) as NginxServer;
      const location: NginxLocation = {
        host: server.host,
        path: p.path,
        pathType: nginxPathType(p.pathType),
        upstream,
        ...serviceBackend(p.raw.backend),
        ingress,
        at: ['spec', 'rules', p.rule, 'http', 'paths', p.index],
        fallback: false,
      };
      const taken = server.locations.findIndex((l) => l.path === p.path && l.pathType === location.pathType);
      if (taken < 0) server.locations.push(location);
      else if (server.locations[taken].fallback) server.locations[taken] = location;
    }
  }
  return servers;
}

/** k8s/main.go SetDefaultNGINXPathType: ingress-nginx reads ImplementationSpecific (or none) as Prefix. */
export function nginxPathType(pathType: string): string {
  return pathType === 'Exact' ? 'Exact' : 'Prefix';
}

/** `host H path P` as a user reads it; the root location of a defaultBackend says so. */
export function placeOf(location: NginxLocation): string {
  const host = location.host === DEFAULT_SERVER ? '*' : location.host;
  return `host ${host} path ${location.fallback ? '/ (no path matches: spec.defaultBackend)' : location.path}`;
}
