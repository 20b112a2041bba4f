import * as fs from 'fs';

/** The streams writers fell back to: output may wait in them after the last write call. */
const opened = new Set<NodeJS.WriteStream>();

/** True while a writer's stream still holds output the descriptor has not taken (see src/cli.ts finish). */
export function outputPending(): boolean {
  return [...opened].some((s) => s.writableLength > 0);
}

let stdoutWriter: ((text: string) => void) | undefined;
let stderrWriter: ((text: string) => void) | undefined;

/** This process's stdout and stderr: one writer each, so a fallback to the stream keeps every line in order. */
export const processStdout = (text: string) => (stdoutWriter ??= pipeSafeWriter(1, () => process.stdout))(text);
export const processStderr = (text: string) => (stderrWriter ??= pipeSafeWriter(2, () => process.stderr))(text);

/**
 * A writer for stdout or stderr that behaves as git and kubectl do when the reader goes away
 * (`rollgen advance --commit | head -1`): the rest of the output is dropped, the work goes on, and the
 * exit status is the command's own, instead of an EPIPE stack trace.
 *
 * Text goes straight to the descriptor: making process.stdout (a socket for a pipe, a tty stream
 * for a terminal) costs 2 ms of every start, and a render writes once. Only when the descriptor
 * cannot take it now (a non-blocking pipe: EAGAIN) or fails otherwise does the stream take over,
 * for that text and all that follows, so the order holds.
 */
export function pipeSafeWriter(fd: number, openStream: () => NodeJS.WriteStream): (text: string) => void {
  let readerGone = false;
  let stream: NodeJS.WriteStream | undefined;
  const viaStream = (data: string | Buffer) => {
    if (!stream) {
      stream = openStream();
      opened.add(stream);
      stream.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code !== 'EPIPE') throw e;
        readerGone = true;
      });
    }
    stream.write(data);
  };
  return (text) => {
    if (readerGone) return;
    if (stream) return viaStream(text);
    let rest = Buffer.from(text);
    try {
      while (rest.length > 0) rest = rest.subarray(fs.writeSync(fd, rest));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EPIPE') readerGone = true;
      else viaStream(rest);
    }
  };
}
