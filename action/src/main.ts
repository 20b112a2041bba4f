/**
 * The GitHub Action's entry point: a thin shell around the CLI. It reads the inputs, runs the same
 * main() as bin/rollgen in the checkout (GITHUB_WORKSPACE), and turns the PR events the flow
 * reports into step outputs and a job summary. All of the Action's I/O is here.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { main } from '../../src/cli';
import { processContext } from '../../src/app/context';
import { buildActionReport, PullRequestEvent } from '../../src/app/report';
import { buildArgv, parseInputs } from './inputs';
import { formatErrorAnnotation, formatOutputs, formatSummary } from './outputs';

async function runAction(env: NodeJS.ProcessEnv): Promise<number> {
  const inputs = parseInputs(env);
  if (typeof inputs === 'string') {
    process.stdout.write(formatErrorAnnotation('action', inputs));
    return 2;
  }
  // The flow reads its connection from GITHUB_TOKEN, GITHUB_REPOSITORY and GITHUB_API_URL (set by
  // the runner; GHES included); the token input (a PAT or App token) overrides the job's token.
  if (inputs.token) env.GITHUB_TOKEN = inputs.token;
  const events: PullRequestEvent[] = [];
  let errors = '';
  // Everything the CLI prints carries text rollgen does not control (app names, PR titles, GitHub's
  // error messages): a line of it starting with `::` would be a workflow command to the runner.
  // GitHub's remedy: stop command processing around it, resuming with an unguessable token.
  const resume = randomBytes(16).toString('hex');
  process.stdout.write(`::stop-commands::${resume}\n`);
  const code = await main(
    buildArgv(inputs),
    processContext({
      cwd: env.GITHUB_WORKSPACE || process.cwd(),
      stderr: (t) => {
        errors += t;
        process.stderr.write(t);
      },
      report: (e) => void events.push(e),
    }),
  ).finally(() => process.stdout.write(`::${resume}::\n`));
  const report = buildActionReport(events);
  if (code !== 0) process.stdout.write(formatErrorAnnotation(inputs.command, errors || `exit status ${code}`));
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, formatOutputs(report));
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, formatSummary(inputs.command, report, code));
  return code;
}

runAction(process.env).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stdout.write(formatErrorAnnotation('action', error instanceof Error ? error.message : String(error)));
    process.exitCode = 1;
  },
);
