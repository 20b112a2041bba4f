import { LineCounter, parseAllDocuments, isNode, isScalar, Document } from 'yaml';
import { Diagnostic, Origin } from '../diagnostics';
import { MAX_DEPTH, NESTED_TOO_DEEP, checkNodes } from './node-checks';

/** Hostile-input bounds: a billion-laughs document fails fast instead of expanding. */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;
export const MAX_ALIAS_COUNT = 100;
export const MAX_DOCUMENTS_PER_FILE = 1000;

export interface ParsedDocument {
  readonly file: string;
  /** 0-based position of the document in its file. */
  readonly index: number;
  readonly value: unknown;
  readonly origin: Origin;
  /** Position of the deepest existing node on a field path. */
  readonly locate: (path: readonly (string | number)[]) => Origin;
  /**
   * Where line 1 of a literal block scalar (`key: |`) starts, so a line inside embedded text (a
   * template) maps back to the file; undefined for any other node or an explicit indentation indicator.
   */
  readonly locateBlockText?: (path: readonly (string | number)[]) => Origin | undefined;
}

/** What a document that failed to parse says it is, when its kind and name can be read all the same. */
export interface UnparsedObject {
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string };
}

export interface ParseResult {
  readonly documents: readonly ParsedDocument[];
  readonly diagnostics: readonly Diagnostic[];
  /** The documents left out for their errors, by what they say they are: what misses them was already told. */
  readonly unparsed?: readonly UnparsedObject[];
  /**
   * Drops the parsed node trees, kept until now to locate fields (several times the size of the
   * data: a run over a whole repo holds every app's). Later `locate` calls give origins whose line
   * and column parse the text again when first read, as only a message reads them.
   */
  readonly release?: () => void;
}

/** Parses a multi-document YAML stream, keeping positions. Never throws on bad input. */
export function parseYamlStream(file: string, text: string): ParseResult {
  if (Buffer.byteLength(text, 'utf8') > MAX_FILE_BYTES) {
    return {
      documents: [],
      diagnostics: [
        error(
          file,
          1,
          1,
          `file is larger than ${MAX_FILE_BYTES} bytes; split it or check that it is the intended input`,
        ),
      ],
    };
  }
  const lineCounter = new LineCounter();
  const docs = parseDocuments(text, lineCounter);
  if (!docs) return { documents: [], diagnostics: [error(file, 1, 1, TOO_DEEP)] };
  if (docs.length > MAX_DOCUMENTS_PER_FILE) {
    return {
      documents: [],
      diagnostics: [error(file, 1, 1, `more than ${MAX_DOCUMENTS_PER_FILE} documents in one file`)],
    };
  }
  const documents: ParsedDocument[] = [];
  const diagnostics: Diagnostic[] = [];
  const unparsed: UnparsedObject[] = [];
  const nodes = new StreamNodes(docs, lineCounter, text);
  docs.forEach((doc, index) => {
    const problems = doc.errors.map((e) =>
      error(file, e.linePos?.[0].line ?? 1, e.linePos?.[0].col ?? 1, tooDeep(e) ? TOO_DEEP : firstLine(e.message)),
    );
    problems.push(...checkNodes(doc, file, lineCounter, text));
    if (problems.length > 0) {
      diagnostics.push(...problems);
      unparsed.push(...[identityOf(doc) ?? []].flat());
      return;
    }
    const value = toJs(doc, file, lineCounter, diagnostics);
    if (value === undefined || value === null) return; // empty document between separators
    documents.push(makeDocument(file, index, value, nodes));
  });
  return { documents, diagnostics, ...(unparsed.length > 0 ? { unparsed } : {}), release: () => nodes.release() };
}

/** kind and metadata.name (and namespace) of a document with errors, where they are plain strings. */
function identityOf(doc: Document): UnparsedObject | undefined {
  try {
    const [kind, name, namespace] = [['kind'], ['metadata', 'name'], ['metadata', 'namespace']].map((p) =>
      doc.getIn(p),
    );
    if (typeof kind !== 'string' || typeof name !== 'string') return undefined;
    return { kind, metadata: { name, ...(typeof namespace === 'string' ? { namespace } : {}) } };
  } catch {
    return undefined; // contents too broken to walk
  }
}

/**
 * A stream parsed in another thread, as plain data it can send back (src/io/yaml-pool.ts): each
 * document's value and where it starts, and the problems found.
 */
export interface StreamDigest {
  readonly documents: readonly {
    readonly index: number;
    readonly value: unknown;
    readonly line: number;
    readonly col: number;
  }[];
  readonly diagnostics: readonly Diagnostic[];
  readonly unparsed?: readonly UnparsedObject[];
  /**
   * The text nests deeper than rollgen reads: where the parser's recursion stops depends on the
   * thread's stack, so such a file is parsed again on the main thread for the same messages.
   */
  readonly stackBound?: true;
}

/** Parses a stream into its digest: what parseYamlStream finds, without the node trees. */
export function digestStream(file: string, text: string): StreamDigest {
  const { documents, diagnostics, unparsed } = parseYamlStream(file, text);
  const deep = diagnostics.some((d) => d.message.endsWith(TOO_DEEP) || d.message === NESTED_TOO_DEEP);
  return {
    documents: documents.map((d) => ({ index: d.index, value: d.value, line: d.origin.line, col: d.origin.col })),
    diagnostics,
    ...(unparsed ? { unparsed } : {}),
    ...(deep ? { stackBound: true as const } : {}),
  };
}

/**
 * The parse result of a digest, as parseYamlStream's after `release`: a position inside a document
 * parses the text again (once) when first read, as only a message reads it.
 */
export function fromDigest(file: string, text: string, digest: StreamDigest): ParseResult {
  const nodes = new StreamNodes(undefined, new LineCounter(), text);
  const documents = digest.documents.map((d) =>
    makeDocument(file, d.index, d.value, nodes, { file, line: d.line, col: d.col }),
  );
  const unparsed = digest.unparsed ? { unparsed: digest.unparsed } : {};
  return { documents, diagnostics: digest.diagnostics, ...unparsed, release: () => nodes.release() };
}

/** The node trees of one stream and its line counter; after `release`, parsed again (once) when asked for. */
class StreamNodes {
  private docs: readonly Document[] | undefined;
  constructor(
    docs: readonly Document[] | undefined,
    private lineCounter: LineCounter,
    readonly text: string,
  ) {
    this.docs = docs;
  }

  get held(): boolean {
    return this.docs !== undefined;
  }

  doc(index: number): Document {
    if (!this.docs) {
      this.lineCounter = new LineCounter();
      this.docs = parseDocuments(this.text, this.lineCounter) ?? [];
    }
    return this.docs[index];
  }

  linePos(offset: number): { line: number; col: number } {
    return this.lineCounter.linePos(offset);
  }

  release(): void {
    this.docs = undefined;
  }
}

const TOO_DEEP = `nested too deeply to read; no Kubernetes object nests more than ${MAX_DEPTH} levels`;

/** The parser recurses per nesting level: a stack overflow is hostile nesting, reported as such. */
function tooDeep(e: Error): boolean {
  return e instanceof RangeError || /Maximum call stack/.test(e.message);
}

function parseDocuments(text: string, lineCounter: LineCounter): Document[] | undefined {
  try {
    // merge: `<<: *base` is expanded as kubectl and kustomize (YAML 1.1 readers) expand it, not kept as a field.
    const parsed = parseAllDocuments(text, {
      lineCounter,
      prettyErrors: true,
      uniqueKeys: true,
      strict: true,
      merge: true,
      logLevel: 'error',
    });
    return Array.isArray(parsed) ? parsed : [];
  } catch (e) {
    if (e instanceof Error && tooDeep(e)) return undefined;
    throw e;
  }
}

function toJs(doc: Document, file: string, lc: LineCounter, out: Diagnostic[]): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    const pos =
      doc.contents && isNode(doc.contents) && doc.contents.range
        ? lc.linePos(doc.contents.range[0])
        : { line: 1, col: 1 };
    out.push(
      error(
        file,
        pos.line,
        pos.col,
        `cannot expand document: ${(e as Error).message} (aliases are limited to ${MAX_ALIAS_COUNT})`,
      ),
    );
    return undefined;
  }
}

function makeDocument(
  file: string,
  index: number,
  value: unknown,
  nodes: StreamNodes,
  origin?: Origin,
): ParsedDocument {
  const at = (offset: number): Origin => {
    const p = nodes.linePos(offset);
    return { file, line: p.line, col: p.col };
  };
  const rootOf = (doc: Document) =>
    doc.contents && isNode(doc.contents) && doc.contents.range ? doc.contents.range[0] : 0;
  const locateIn = (doc: Document, path: readonly (string | number)[]): Origin => {
    for (let n = path.length; n >= 0; n--) {
      const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
      if (isNode(node) && node.range) return at(node.range[0]);
    }
    return at(rootOf(doc));
  };
  const locate = (path: readonly (string | number)[]): Origin =>
    nodes.held ? locateIn(nodes.doc(index), path) : lazyOrigin(file, () => locateIn(nodes.doc(index), path));
  const locateBlockText = (path: readonly (string | number)[]): Origin | undefined => {
    const node = nodes.doc(index).getIn(path, true);
    if (!isScalar(node) || node.type !== 'BLOCK_LITERAL' || !node.range) return undefined;
    return blockTextStart(nodes.text, node.range[0], (o) => nodes.linePos(o).line, file);
  };
  return { file, index, value, origin: origin ?? at(rootOf(nodes.doc(index))), locate, locateBlockText };
}

/** An origin whose line and column are found when first read (a released stream parses again for them). */
function lazyOrigin(file: string, find: () => Origin): Origin {
  let found: Origin | undefined;
  const get = () => (found ??= find());
  return {
    file,
    get line() {
      return get().line;
    },
    get col() {
      return get().col;
    },
  };
}

/** Content of a block scalar starts on the line after its `|` header, indented as its first non-blank line. */
function blockTextStart(
  text: string,
  headerOffset: number,
  lineOf: (offset: number) => number,
  file: string,
): Origin | undefined {
  const eol = text.indexOf('\n', headerOffset);
  if (eol < 0 || /^\|[-+]?[1-9]/.test(text.slice(headerOffset, eol))) return undefined;
  const firstLine = /^(?:[ \t]*\r?\n)*( *)\S/.exec(text.slice(eol + 1));
  return { file, line: lineOf(headerOffset) + 1, col: (firstLine?.[1].length ?? 0) + 1 };
}

function error(file: string, line: number, col: number, message: string): Diagnostic {
  return { file, line, col, message: `invalid YAML: ${message}`, severity: 'error' };
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}
