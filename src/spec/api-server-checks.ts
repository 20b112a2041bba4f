import { Diagnostic } from '../diagnostics';
import { isObject } from '../model/kube';
import { ParsedDocument } from '../yaml/parse';

type Path = (string | number)[];
type Report = (path: Path, message: string) => void;

/**
 * What the API server's own validation refuses in pod templates and Service ports (the published
 * OpenAPI has no pattern for most of it: a Quantity is `number | string`, a port an int32), checked
 * at the field so that a commit never fails at apply: resource quantities, container names and their
 * uniqueness, port numbers and port names. Pure; every command runs it as it loads the sources.
 */
export function checkApiServerRules(doc: ParsedDocument, out: Diagnostic[]): void {
  const v = doc.value as { kind: string; spec?: unknown };
  const report: Report = (path, message) =>
    out.push({ ...doc.locate(path), message: `${v.kind} ${message}`, severity: 'error' });
  const podPath = podSpecPath(v.kind);
  const pod = podPath && dig(v, podPath);
  if (podPath && isObject(pod)) checkPodSpec(pod, podPath, report);
  if (v.kind === 'Service' && isObject(v.spec)) checkServicePorts(v.spec, report);
}

/** Where a kind keeps its pod spec (a Rollout, like a Deployment, under spec.template). */
function podSpecPath(kind: string): Path | undefined {
  if (kind === 'Pod') return ['spec'];
  if (kind === 'CronJob') return ['spec', 'jobTemplate', 'spec', 'template', 'spec'];
  return TEMPLATED.has(kind) ? ['spec', 'template', 'spec'] : undefined;
}

const TEMPLATED = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'Rollout', 'CloneSet']);
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

function checkPodSpec(pod: Record<string, unknown>, at: Path, report: Report): void {
  const seen = new Set<string>();
  for (const list of CONTAINER_LISTS) {
    const containers = pod[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((c, i) => {
      if (!isObject(c)) return;
      const path = [...at, list, i];
      const name = c.name;
      if (typeof name === 'string') {
        if (!isDnsLabel(name))
          report([...path, 'name'], `container name ${show(name)} must be a DNS label (at most 63 of a-z, 0-9, '-')`);
        else if (seen.has(name))
          report([...path, 'name'], `container name ${show(name)} is used twice in the pod; name each container once`);
        seen.add(name);
      }
      checkResources(c.resources, [...path, 'resources'], report);
      checkContainerPorts(c.ports, [...path, 'ports'], report);
    });
  }
}

function checkResources(resources: unknown, at: Path, report: Report): void {
  if (!isObject(resources)) return;
  for (const kind of ['limits', 'requests'] as const) {
    const map = resources[kind];
    if (!isObject(map)) continue;
    for (const [resource, amount] of Object.entries(map)) {
      const problem = quantityProblem(amount);
      if (problem) report([...at, kind, resource], `${kind}.${resource} ${show(amount)} ${problem}`);
    }
  }
}

/** Kubernetes' Quantity syntax: a signed decimal, then a binary (Ki..Ei) or decimal (n..E) suffix or an exponent. */
const QUANTITY = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/;

export function quantityProblem(amount: unknown): string | undefined {
  const text = typeof amount === 'number' ? String(amount) : amount;
  if (typeof text !== 'string' || !QUANTITY.test(text))
    return 'is not a quantity: write a number with an optional suffix (100m, 0.5, 128Mi, 1G)';
  if (text.startsWith('-')) return 'must not be negative';
  return undefined;
}

function checkContainerPorts(ports: unknown, at: Path, report: Report): void {
  if (!Array.isArray(ports)) return;
  const names = new Set<string>();
  ports.forEach((p, i) => {
    if (!isObject(p)) return;
    const path = [...at, i];
    checkPortNumber(p.containerPort, [...path, 'containerPort'], 'containerPort', 1, report);
    if (p.hostPort !== undefined) checkPortNumber(p.hostPort, [...path, 'hostPort'], 'hostPort', 0, report);
    checkPortName(p.name, [...path, 'name'], names, report);
  });
}

function checkServicePorts(spec: Record<string, unknown>, report: Report): void {
  const ports = spec.ports;
  if (!Array.isArray(ports)) return;
  const names = new Set<string>();
  ports.forEach((p, i) => {
    if (!isObject(p)) return;
    const path: Path = ['spec', 'ports', i];
    checkPortNumber(p.port, [...path, 'port'], 'port', 1, report);
    if (p.nodePort !== undefined) checkPortNumber(p.nodePort, [...path, 'nodePort'], 'nodePort', 0, report);
    if (typeof p.targetPort === 'number')
      checkPortNumber(p.targetPort, [...path, 'targetPort'], 'targetPort', 1, report);
    else if (typeof p.targetPort === 'string' && !isPortName(p.targetPort))
      report([...path, 'targetPort'], `targetPort ${show(p.targetPort)} is neither a port number nor a port name`);
    checkPortName(p.name, [...path, 'name'], names, report);
    if (p.name === undefined && ports.length > 1)
      report(path, 'port needs a name: a Service with several ports names each of them');
  });
}

function checkPortNumber(value: unknown, path: Path, field: string, min: number, report: Report): void {
  if (typeof value !== 'number') return; // a missing or mistyped port is the schema's to report
  if (!Number.isInteger(value) || value < min || value > 65535)
    report(path, `${field} ${show(value)} must be a port number from ${min} to 65535`);
}

function checkPortName(name: unknown, path: Path, seen: Set<string>, report: Report): void {
  if (typeof name !== 'string') return;
  if (!isPortName(name))
    report(
      path,
      `port name ${show(name)} must be at most 15 of a-z, 0-9 and '-', with a letter, no '--', not at an end`,
    );
  else if (seen.has(name)) report(path, `port name ${show(name)} is used twice; name each port once`);
  seen.add(name);
}

/** IANA_SVC_NAME, as the API server checks port names. */
function isPortName(name: string): boolean {
  return (
    name.length <= 15 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) && /[a-z]/.test(name) && !name.includes('--')
  );
}

function isDnsLabel(name: string): boolean {
  return name.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name);
}

function dig(v: unknown, path: Path): unknown {
  return path.reduce<unknown>((o, k) => (isObject(o) ? o[k as string] : undefined), v);
}

function show(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}
