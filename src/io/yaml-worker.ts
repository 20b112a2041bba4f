import { Worker } from 'worker_threads';

/** Work for the YAML worker (src/io/yaml-worker-thread.ts): groups to parse or to serialize. */
export type YamlTask =
  | { readonly kind: 'parse'; readonly groups: readonly (readonly { path: string; text: string }[])[] }
  | { readonly kind: 'serialize'; readonly groups: readonly (readonly unknown[])[] };

/** A task as posted: with its number and a flag per group saying who took it. */
export type PostedTask = YamlTask & {
  readonly id: number;
  /** Per group: 0 untaken, 1 the main thread's, 2 the worker's (taken with compareExchange, so never both). */
  readonly taken: Int32Array;
};

/** The worker's messages: [task, group, result] per group it did, then [task, -1, undefined] when it stops. */
export type YamlWorkerMessage = readonly [task: number, group: number, result: unknown];

export const TAKEN_HERE = 1;
export const TAKEN_THERE = 2;
export const TASK_DONE = -1;

/** A running task: claim a group for this thread, or wait for the worker's result of one it took. */
export interface SharedTask {
  claim(group: number): boolean;
  /** The worker's result for a group it took; undefined when it stopped without it (this thread does it then). */
  resultOf(group: number): Promise<unknown>;
  finish(): Promise<void>;
}

interface YamlWorker {
  /** Posts a task; undefined when the worker is busy with another or cannot take it. */
  run(task: YamlTask): SharedTask | undefined;
}

/**
 * One worker per process, kept between tasks and unreferenced while idle (it never keeps the
 * process alive): a second run in the same process (a watch, a test, the bench) finds its code
 * compiled. A worker that fails is dropped; the next task starts another.
 */
let current: { file: string; worker: Worker; busy: boolean } | undefined;
let nextId = 1;

export function startYamlWorker(file: string): YamlWorker | undefined {
  if (!current || current.file !== file) {
    const worker = new Worker(file);
    worker.unref();
    const mine = { file, worker, busy: false };
    const drop = () => {
      if (current === mine) current = undefined;
    };
    worker.on('error', drop);
    worker.on('exit', drop);
    current = mine;
  }
  const slot = current;
  return {
    run(task) {
      if (slot.busy || current !== slot) return undefined;
      const taken = new Int32Array(new SharedArrayBuffer(4 * Math.max(1, task.groups.length)));
      const posted: PostedTask = { ...task, id: nextId++, taken };
      try {
        slot.worker.postMessage(posted);
      } catch {
        return undefined; // a value the structured clone cannot copy: done here
      }
      slot.busy = true;
      slot.worker.ref();
      return follow(slot, posted);
    },
  };
}

/** Collects the worker's results for one task as they come; its end (or the worker's) releases whoever waits. */
function follow(slot: { worker: Worker; busy: boolean }, task: PostedTask): SharedTask {
  const results = new Map<number, unknown>();
  let ended = false;
  let wake: (() => void) | undefined;
  const stop = () => {
    ended = true;
    wake?.();
  };
  const onMessage = ([id, group, result]: YamlWorkerMessage) => {
    if (id !== task.id) return;
    if (group === TASK_DONE) stop();
    else results.set(group, result);
    wake?.();
  };
  slot.worker.on('message', onMessage);
  slot.worker.on('exit', stop);
  return {
    claim: (i) => Atomics.compareExchange(task.taken, i, 0, TAKEN_HERE) === 0,
    async resultOf(i) {
      while (!results.has(i) && !ended) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      const found = results.get(i);
      results.delete(i);
      return found;
    },
    async finish() {
      // Whatever the worker has not taken yet is taken from it, so it stops at once.
      for (let i = 0; i < task.groups.length; i++) Atomics.compareExchange(task.taken, i, 0, TAKEN_HERE);
      while (!ended) await new Promise<void>((resolve) => (wake = resolve));
      slot.worker.off('message', onMessage);
      slot.worker.off('exit', stop);
      slot.busy = false;
      slot.worker.unref();
    },
  };
}
