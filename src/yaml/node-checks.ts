import { Document, LineCounter, Node, isAlias, isCollection, isMap, isPair, isScalar } from 'yaml';
import { Diagnostic } from '../diagnostics';

/** Kubernetes objects nest a few dozen levels; deeper input is hostile or a mistake, refused before any recursion. */
export const MAX_DEPTH = 100;
export const NESTED_TOO_DEEP = `nested more than ${MAX_DEPTH} levels deep; no Kubernetes object nests this deep`;

/** Integers YAML 1.1 (what kubectl and kustomize read) and YAML 1.2 read differently: 010, 0o10, 0b10, 1_000. */
const AMBIGUOUS_NUMBER = /^[-+]?(0[0-9_]+|0o[0-7]+|0b[01_]+|[0-9][0-9]*_[0-9_]*)$/;

/** The tags of JSON-compatible YAML, which is all Kubernetes reads; `!env`, `!!binary`, `!!set` and the like are not. */
const CORE_TAGS = new Set(
  ['str', 'int', 'float', 'bool', 'null', 'map', 'seq', 'merge'].map((t) => `tag:yaml.org,2002:${t}`),
);

/**
 * What the yaml library would silently turn into something else: a custom tag (resolved to a string
 * or a Buffer), a key that is a map or a list (stringified), nesting too deep for the recursive stages.
 * Walks the node tree without recursion, so depth itself cannot overflow the stack.
 */
export function checkNodes(doc: Document, file: string, lc: LineCounter, text: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (node: Node, message: string, offset = node.range?.[0]) => {
    const p = offset !== undefined ? lc.linePos(offset) : { line: 1, col: 1 };
    out.push({ file, line: p.line, col: p.col, message, severity: 'error' });
  };
  const stack: { node: unknown; depth: number }[] = [{ node: doc.contents, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!node || isAlias(node) || !(isScalar(node) || isCollection(node))) continue;
    if (node.tag && !CORE_TAGS.has(node.tag))
      at(
        node,
        `tag ${node.tag} is not plain YAML: Kubernetes and kustomize read only strings, numbers, booleans, null, maps and lists; remove the tag`,
        tagOffset(text, node.range?.[0]),
      );
    if (isScalar(node) && typeof node.value === 'number' && !isExactNumber(node.value))
      at(
        node,
        `${String(node.source ?? node.value)} is not a number Kubernetes can hold exactly (JSON has no infinity or NaN, and integers beyond 2^53 lose digits)`,
      );
    if (isScalar(node) && node.type === 'PLAIN' && AMBIGUOUS_NUMBER.test(String(node.source)))
      at(
        node,
        `${String(node.source)} is a number to kubectl and kustomize (YAML 1.1) but not the same one, or a string, in YAML 1.2; write it in decimal without leading zeros, or quote it`,
      );
    if (!isCollection(node)) continue;
    if (depth >= MAX_DEPTH) {
      at(node, NESTED_TOO_DEEP);
      return out;
    }
    for (const item of [...node.items].reverse()) {
      if (isPair(item)) {
        if (isMap(node) && isCollection(item.key))
          at(item.key as Node, 'a map key that is itself a map or a list; Kubernetes keys are strings');
        stack.push({ node: item.value, depth: depth + 1 });
        if (isScalar(item.key)) stack.push({ node: item.key, depth: depth + 1 });
      } else stack.push({ node: item, depth: depth + 1 });
    }
  }
  return out;
}

/** The node's range starts at its value; the tag the user wrote is the last `!` before it. */
function tagOffset(text: string, valueStart: number | undefined): number | undefined {
  if (valueStart === undefined) return undefined;
  const bang = text.lastIndexOf('!', valueStart);
  return bang >= 0 && !text.slice(bang, valueStart).includes('\n')
    ? bang - (text[bang - 1] === '!' ? 1 : 0)
    : valueStart;
}

/** Finite, and an integer only where a double holds it exactly: rollgen would otherwise write back another number. */
function isExactNumber(n: number): boolean {
  return Number.isFinite(n) && (!Number.isInteger(n) || Number.isSafeInteger(n));
}
