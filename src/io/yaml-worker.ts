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
  /** How many groups' results the worker has sent so far. */
  received(): number;
  /** Takes the groups left; nobody waits for the worker to end the task (it may still be starting). */
  finish(): void;
}

interface YamlWorker {
  /** Posts a task (queued after any the worker still has); undefined when it cannot take it. */
  run(task: YamlTask): SharedTask | undefined;
}

/**
 * One worker per process, kept between tasks and unreferenced while no task is followed (it never
 * keeps the process alive): a second run in the same process (a watch, a test, the bench) finds its
 * code compiled. Tasks queue in the worker; one whose groups were all taken ends at once there, so a
 * call right after another loses nothing. A worker that fails is dropped; the next task starts another.
 */
interface Slot {
  readonly file: string;
  readonly worker: Worker;
  /** Tasks posted and not finished by this thread: the worker is referenced while there are any. */
  following: number;
}
let current: Slot | undefined;
let nextId = 1;

export function startYamlWorker(file: string): YamlWorker | undefined {
  if (current?.file !== file) current = startSlot(file);
  const slot = current;
  if (!slot) return undefined;
  return {
    run(task) {
      if (current !== slot) return undefined;
      const taken = new Int32Array(new SharedArrayBuffer(4 * Math.max(1, task.groups.length)));
      const posted: PostedTask = { ...task, id: nextId++, taken };
      try {
        slot.worker.postMessage(posted);
      } catch {
        return undefined; // a value the structured clone cannot copy: done here
      }
      if (slot.following++ === 0) slot.worker.ref();
      return follow(slot, posted);
    },
  };
}

function startSlot(file: string): Slot | undefined {
  void current?.worker.terminate(); // another script (tests): the old worker would idle to the end
  let worker: Worker;
  try {
    worker = new Worker(file);
  } catch {
    return undefined; // no thread to be had (ERR_WORKER_INIT_FAILED, a resource limit): the work stays here
  }
  worker.unref();
  const slot: Slot = { file, worker, following: 0 };
  const drop = () => {
    if (current === slot) current = undefined;
  };
  worker.on('error', drop);
  worker.on('exit', drop);
  return slot;
}

/** Collects the worker's results for one task as they come; its end (or the worker's) releases whoever waits. */
function follow(slot: Slot, task: PostedTask): SharedTask {
  const results = new Map<number, unknown>();
  let received = 0;
  let ended = false;
  let finished = false;
  let wake: (() => void) | undefined;
  const detach = () => {
    slot.worker.off('message', onMessage);
    slot.worker.off('exit', stop);
  };
  const stop = () => {
    ended = true;
    wake?.();
    if (finished) detach();
  };
  const onMessage = ([id, group, result]: YamlWorkerMessage) => {
    if (id !== task.id) return;
    if (group === TASK_DONE) return stop();
    results.set(group, result);
    received++;
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
    received: () => received,
    finish() {
      for (let i = 0; i < task.groups.length; i++) Atomics.compareExchange(task.taken, i, 0, TAKEN_HERE);
      finished = true;
      if (--slot.following === 0) slot.worker.unref();
      if (ended) detach();
    },
  };
}
