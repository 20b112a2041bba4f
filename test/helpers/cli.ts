import { main } from '../../src/cli';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in-process exactly as bin/rollgen does, capturing output. */
export async function runCli(args: readonly string[], cwd: string, stdin = ''): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    cwd,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readStdin: async () => [{ path: '<stdin>', text: stdin }],
  });
  return { code, stdout, stderr };
}
