// The YAML worker (built to dist/yaml-worker.js; see src/io/yaml-worker.ts). For each task it takes
// groups from the last backwards until it meets one the main thread took, sends each group's result
// (digests of parsed files, or serialized texts), then says it is done.
import { parentPort } from 'worker_threads';
import { digestStream } from '../yaml/parse';
import { serializeValue } from '../yaml/serialize';
import { PostedTask, TAKEN_THERE, TASK_DONE, YamlWorkerMessage } from './yaml-worker';

const port = parentPort!;

port.on('message', (task: PostedTask) => {
  for (let i = task.groups.length - 1; i >= 0; i--) {
    if (Atomics.compareExchange(task.taken, i, 0, TAKEN_THERE) !== 0) break;
    const message: YamlWorkerMessage = [task.id, i, resultOf(task, i)];
    port.postMessage(message);
  }
  const done: YamlWorkerMessage = [task.id, TASK_DONE, undefined];
  port.postMessage(done);
});

function resultOf(task: PostedTask, i: number): unknown {
  if (task.kind === 'parse') return task.groups[i].map((job) => digestStream(job.path, job.text));
  return task.groups[i].map((value) => serializeValue(value));
}
