import * as fs from 'fs';
import * as path from 'path';
import { availableParallelism } from 'os';
import { debuglog } from 'util';

import { ParseResult, StreamDigest, fromDigest, parseYamlStream } from '../yaml/parse';
import { serializeValue } from '../yaml/serialize';
import { SharedTask, YamlTask, startYamlWorker } from './yaml-worker';

/** One file to parse: the path its messages show, and its text. */
export interface ParseJob {
  readonly path: string;
  readonly text: string;
}

export interface YamlPoolOptions {
  /** The worker's script; unset: yaml-worker.js beside this bundle (dist/). */
  readonly workerFile?: string;
  /** Fewer groups than this are done on this thread alone. */
  readonly minGroups?: number;
  /** So are files of fewer characters in all (about their bytes), */
  readonly minBytes?: number;
  /** and fewer values to serialize: handing them over would cost more than it saves. */
  readonly minValues?: number;
}

/**
 * The YAML work of a run over many apps, shared with a worker thread when there is a second core.
 * Each call takes groups (an app's files or objects) and hands each group's results to `use` in
 * order, on this thread. The worker takes groups from the last backwards while this thread takes
 * and uses them from the first: they meet where their speeds say, and each group is done by one
 * of them. The results are the same bytes and values either way; only a position inside a document
 * the worker parsed is found by parsing its file again, when a message first reads it.
 */
export interface YamlPool {
  parseGroups<T>(
    groups: readonly (readonly ParseJob[])[],
    use: (group: number, results: ParseResult[]) => T | Promise<T>,
  ): Promise<T[]>;
  /** serializeValue of each value. */
  serializeGroups<T>(
    groups: readonly (readonly unknown[])[],
    use: (group: number, texts: string[]) => T | Promise<T>,
  ): Promise<T[]>;
  /**
   * Whether a worker was started for this pool (many groups, a second core): without one, a caller
   * need not read all its groups before the first is used. Calls with little YAML (minBytes,
   * minValues) are still done here alone.
   */
  readonly shares: boolean;
  /** How many groups the worker has done for this pool's calls so far, as their results arrive (for tests). */
  sharedGroups(): number;
}

// Less than this is done here: a worker's share of it would not pay for handing it over.
const MIN_BYTES = 256 * 1024;
const MIN_VALUES = 64;

/**
 * Test seam, like ROLLGEN_TEST_CRASH_AT: `ROLLGEN_TEST_YAML_POOL_MIN_GROUPS=N` shares from N groups
 * of any size, so a test of the CLI with its worker needs a dozen apps, not hundreds of KB of them.
 */
function seamOptions(): YamlPoolOptions {
  const n = Number(process.env.ROLLGEN_TEST_YAML_POOL_MIN_GROUPS);
  return n > 0 ? { minGroups: n, minBytes: 0, minValues: 0 } : {};
}

/** A pool for about `expected` groups per call; the worker (kept for the process, idle between calls) starts now. */
export function yamlPool(expected: number, given: YamlPoolOptions = {}): YamlPool {
  const options = { ...seamOptions(), ...given };
  const file = options.workerFile ?? path.join(__dirname, 'yaml-worker.js');
  const wanted = expected >= (options.minGroups ?? 64) && availableParallelism() >= 2 && fs.existsSync(file);
  // Started now, so it boots while the caller reads its files.
  const worth = wanted && startYamlWorker(file) !== undefined;
  const live = new Set<SharedTask>();
  let done = 0;
  const share = (task: YamlTask): SharedTask | undefined => {
    const shared = worth ? startYamlWorker(file)?.run(task) : undefined;
    if (!shared) return undefined;
    live.add(shared);
    const finish = () => {
      shared.finish();
      live.delete(shared);
      done += shared.received();
    };
    return { ...shared, finish };
  };
  return {
    shares: worth,
    sharedGroups: () => [...live].reduce((n, t) => n + t.received(), done),
    parseGroups: (groups, use) => {
      const bytes = groups.reduce((n, g) => g.reduce((m, job) => m + job.text.length, n), 0);
      const jobs = groups.map((g) => g.map((j) => ({ path: j.path, text: j.text })));
      const helper = bytes >= (options.minBytes ?? MIN_BYTES) ? share({ kind: 'parse', groups: jobs }) : undefined;
      const here = (i: number) => groups[i].map((j): ParseResult => parseYamlStream(j.path, j.text));
      const fromWorker = (i: number, result: unknown) => {
        const digests = result as StreamDigest[];
        if (digests.some((d) => d.stackBound)) return here(i);
        return groups[i].map((j, k) => fromDigest(j.path, j.text, digests[k]));
      };
      return shareGroups(groups.length, helper, here, fromWorker, use);
    },
    serializeGroups: (groups, use) => {
      const values = groups.reduce((n, g) => n + g.length, 0);
      const helper = values >= (options.minValues ?? MIN_VALUES) ? share({ kind: 'serialize', groups }) : undefined;
      const here = (i: number) => groups[i].map((v) => serializeValue(v));
      return shareGroups(groups.length, helper, here, (_i, texts) => texts as string[], use);
    },
  };
}

// NODE_DEBUG=rollgen-yaml prints how many groups of each call the worker did (the tests read it).
const debug = debuglog('rollgen-yaml');

async function shareGroups<R, T>(
  count: number,
  helper: SharedTask | undefined,
  here: (group: number) => R,
  there: (group: number, result: unknown) => R,
  use: (group: number, result: R) => T | Promise<T>,
): Promise<T[]> {
  const out: T[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const result = helper && !helper.claim(i) ? await helper.resultOf(i) : undefined;
      out.push(await use(i, result === undefined ? here(i) : there(i, result)));
    }
  } finally {
    helper?.finish();
  }
  if (helper) debug('%d of %d groups done by the worker', helper.received(), count);
  return out;
}
