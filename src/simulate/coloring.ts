import type { SimRequest } from '../contract/generator';
import { KubeObject, isObject } from '../model/kube';

interface Branch {
  readonly when: readonly (readonly [string, string])[];
  readonly header: string;
  readonly value: string;
}

/**
 * What the ingress gateway does to a request before routing: runs the Lua of each EnvoyFilter
 * rollgen rendered from a RequestColoring. Only that generated shape is understood; anything else
 * throws, so a change to the generator cannot pass the simulator unread. Pure.
 */
export function colorAtGateway(objects: readonly KubeObject[], request: SimRequest): SimRequest {
  let headers = { ...request.headers };
  for (const o of objects) {
    if (o.kind !== 'EnvoyFilter' || o.metadata.labels?.['app.kubernetes.io/managed-by'] !== 'rollgen') continue;
    for (const code of inlineCodes(o)) {
      const branch = parseLua(code).find((b) => b.when.every(([name, value]) => headers[name] === value));
      if (branch) headers = { ...headers, [branch.header]: branch.value };
    }
  }
  return { ...request, headers };
}

function inlineCodes(o: KubeObject): string[] {
  const patches = isObject(o.spec) && Array.isArray(o.spec.configPatches) ? o.spec.configPatches : [];
  return patches
    .map(
      (p) =>
        (p as { patch?: { value?: { typed_config?: { inlineCode?: unknown } } } }).patch?.value?.typed_config
          ?.inlineCode,
    )
    .filter((c): c is string => typeof c === 'string');
}

const STRING = '"((?:[^"\\\\]|\\\\.)*)"';
const TEST = new RegExp(`headers:get\\(${STRING}\\) == ${STRING}`, 'g');
const SET = new RegExp(`^headers:replace\\(${STRING}, ${STRING}\\)$`);

/** if/elseif/else branches in order; the else branch has no conditions. */
function parseLua(code: string): Branch[] {
  const lines = code
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const branches: Branch[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const cond = /^(if|elseif) (.*) then$/.exec(line);
    if (!cond && line !== 'else') continue;
    const when = cond ? [...cond[2].matchAll(TEST)].map((m) => [unquote(m[1]), unquote(m[2])] as const) : [];
    const set = SET.exec(lines[i + 1] ?? '');
    if (!set || (cond && when.length === 0)) throw new Error(`unrecognised RequestColoring Lua near "${line}"`);
    branches.push({ when, header: unquote(set[1]), value: unquote(set[2]) });
  }
  return branches;
}

function unquote(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}
