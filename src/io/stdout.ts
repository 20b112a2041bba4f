/**
 * A writer for stdout or stderr that behaves as git and kubectl do when the reader goes away
 * (`rollgen advance --commit | head -1`): the rest of the output is dropped, the work goes on, and the
 * exit status is the command's own, instead of an EPIPE stack trace.
 */
export function pipeSafeWriter(stream: NodeJS.WriteStream): (text: string) => void {
  let readerGone = false;
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    readerGone = true;
  });
  return (text) => {
    if (!readerGone) stream.write(text);
  };
}
