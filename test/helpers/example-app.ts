import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** A scratch copy of an example app, edited, for tests that run the CLI on one user mistake each. */
const EXAMPLES = path.join(__dirname, '..', '..', 'examples');

export interface ExampleApp {
  /** The scratch directory (the CLI's cwd); the app is its `src/`. */
  readonly dir: () => string;
  /** Copies examples/<name> to src/ with `file` edited; returns the edited text. */
  readonly example: (name: string, file: string, edit: (text: string) => string) => string;
}

/** Registers beforeEach/afterEach that give each test a fresh scratch directory. */
export function exampleApps(prefix: string): ExampleApp {
  let dir = '';
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  return {
    dir: () => dir,
    example: (name, file, edit) => {
      const src = path.join(dir, 'src');
      fs.cpSync(path.join(EXAMPLES, name), src, { recursive: true });
      const full = path.join(src, file);
      const text = edit(fs.readFileSync(full, 'utf8'));
      fs.writeFileSync(full, text);
      return text;
    },
  };
}

/** The 1-based line of the first line holding `needle`. */
export const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
