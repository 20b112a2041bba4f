import { main } from '../../src/cli';
import { RunContext } from '../../src/app/context';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in-process exactly as bin/rollgen does, capturing output. */
/** `edges` injects the flow's environment, clock, code host and git (src/flow/edges.ts). */
export async function runCli(
  args: readonly string[],
  cwd: string,
  stdin = '',
  edges: Pick<RunContext, 'env' | 'now' | 'scm' | 'git' | 'ticker'> = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    cwd,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readStdin: async () => [{ path: '<stdin>', text: stdin }],
    ...edges,
  });
  return { code, stdout, stderr };
}
