/**
 * The GitHub Action's entry point: a thin shell around the CLI (run-action.ts), run with the
 * process's environment and output streams. All of the Action's process I/O is here.
 */
import { processContext } from '../../src/app/context';
import { formatErrorAnnotation } from './outputs';
import { runAction } from './run-action';

const { stdout, stderr } = processContext();

runAction(process.env, { stdout, stderr }).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stdout.write(formatErrorAnnotation('action', error instanceof Error ? error.message : String(error)));
    process.exitCode = 1;
  },
);
