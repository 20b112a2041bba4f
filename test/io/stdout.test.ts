/**
 * bin/rollgen exits as soon as main() resolves (src/app/context.ts finishProcess) unless a writer had to
 * fall back to its stream and that stream still holds output: these pin down what "pending" means.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Writable } from 'stream';
import { outputPending, pipeSafeWriter } from '../../src/io/stdout';

/** A stream that keeps what it is given until `drain()`, as a pipe whose reader is slow. */
function slowStream() {
  const held: Buffer[] = [];
  let release: (() => void) | undefined;
  const stream = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _enc, done) {
      held.push(chunk);
      release = done;
    },
  });
  return { stream: stream as unknown as NodeJS.WriteStream, held, drain: () => release?.() };
}

test('text goes straight to the descriptor: no stream, nothing pending', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-stdout-'));
  const fd = fs.openSync(path.join(dir, 'out'), 'w');
  try {
    const opened: string[] = [];
    const write = pipeSafeWriter(fd, () => {
      opened.push('stream');
      return slowStream().stream;
    });
    write('a\n');
    write('b\n');
    expect(fs.readFileSync(path.join(dir, 'out'), 'utf8')).toBe('a\nb\n');
    expect(opened).toEqual([]);
    expect(outputPending()).toBe(false);
  } finally {
    fs.closeSync(fd);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('after a failed direct write the stream takes over, and its unwritten output is pending until written', async () => {
  const slow = slowStream();
  const closed = fs.openSync(os.devNull, 'w');
  fs.closeSync(closed); // EBADF: the writer falls back to its stream for this text and all that follows
  const write = pipeSafeWriter(closed, () => slow.stream);
  write('first\n');
  write('second\n');
  expect(outputPending()).toBe(true);
  for (let i = 0; i < 5 && outputPending(); i++) {
    slow.drain();
    await new Promise((r) => setImmediate(r));
  }
  expect(Buffer.concat(slow.held).toString()).toBe('first\nsecond\n');
  expect(outputPending()).toBe(false);
});
