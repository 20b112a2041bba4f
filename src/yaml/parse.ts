import { LineCounter, parseAllDocuments, isNode, isScalar, Document } from 'yaml';
import { Diagnostic, Origin } from '../diagnostics';
import { MAX_DEPTH, checkNodes } from './node-checks';

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

export interface ParseResult {
  readonly documents: readonly ParsedDocument[];
  readonly diagnostics: readonly Diagnostic[];
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
  docs.forEach((doc, index) => {
    const problems = doc.errors.map((e) =>
      error(file, e.linePos?.[0].line ?? 1, e.linePos?.[0].col ?? 1, tooDeep(e) ? TOO_DEEP : firstLine(e.message)),
    );
    problems.push(...checkNodes(doc, file, lineCounter, text));
    if (problems.length > 0) {
      diagnostics.push(...problems);
      return;
    }
    const value = toJs(doc, file, lineCounter, diagnostics);
    if (value === undefined || value === null) return; // empty document between separators
    documents.push(makeDocument(file, index, value, doc, lineCounter, text));
  });
  return { documents, diagnostics };
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
  doc: Document,
  lc: LineCounter,
  text: string,
): ParsedDocument {
  const at = (offset: number): Origin => {
    const p = lc.linePos(offset);
    return { file, line: p.line, col: p.col };
  };
  const rootOffset = doc.contents && isNode(doc.contents) && doc.contents.range ? doc.contents.range[0] : 0;
  const locate = (path: readonly (string | number)[]): Origin => {
    for (let n = path.length; n >= 0; n--) {
      const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
      if (isNode(node) && node.range) return at(node.range[0]);
    }
    return at(rootOffset);
  };
  const locateBlockText = (path: readonly (string | number)[]): Origin | undefined => {
    const node = doc.getIn(path, true);
    if (!isScalar(node) || node.type !== 'BLOCK_LITERAL' || !node.range) return undefined;
    return blockTextStart(text, node.range[0], lc, file);
  };
  return { file, index, value, origin: at(rootOffset), locate, locateBlockText };
}

/** Content of a block scalar starts on the line after its `|` header, indented as its first non-blank line. */
function blockTextStart(text: string, headerOffset: number, lc: LineCounter, file: string): Origin | undefined {
  const eol = text.indexOf('\n', headerOffset);
  if (eol < 0 || /^\|[-+]?[1-9]/.test(text.slice(headerOffset, eol))) return undefined;
  const firstLine = /^(?:[ \t]*\r?\n)*( *)\S/.exec(text.slice(eol + 1));
  return { file, line: lc.linePos(headerOffset).line + 1, col: (firstLine?.[1].length ?? 0) + 1 };
}

function error(file: string, line: number, col: number, message: string): Diagnostic {
  return { file, line, col, message: `invalid YAML: ${message}`, severity: 'error' };
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}
