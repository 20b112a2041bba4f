/**
 * One run of the Action: reads the inputs, runs the same main() as bin/rollgen in the checkout
 * (GITHUB_WORKSPACE), and turns the PR events the flow reports into step outputs and a job
 * summary. The environment and the two output streams are parameters, so tests run it from sources.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { main } from '../../src/cli';
import { processContext } from '../../src/app/context';
import { buildActionReport, DeferredApp, PullRequestEvent } from '../../src/app/report';
import { buildArgv, parseInputs } from './inputs';
import { formatErrorAnnotation, formatOutputs, formatSummary } from './outputs';

export interface ActionStreams {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** `env` is the process's environment in production (the token input is set in it, as before the split). */
export async function runAction(env: Record<string, string | undefined>, io: ActionStreams): Promise<number> {
  const inputs = parseInputs(env);
  if (typeof inputs === 'string') {
    io.stdout(formatErrorAnnotation('action', inputs));
    return 2;
  }
  // The flow reads its connection from GITHUB_TOKEN, GITHUB_REPOSITORY and GITHUB_API_URL (set by
  // the runner; GHES included); the token input (a PAT or App token) overrides the job's token.
  if (inputs.token) env.GITHUB_TOKEN = inputs.token;
  const events: PullRequestEvent[] = [];
  const deferred: DeferredApp[] = [];
  let fleet: string | undefined;
  let errors = '';
  // Everything the CLI prints carries text rollgen does not control (app names, PR titles, GitHub's
  // error messages): a line of it starting with `::` would be a workflow command to the runner.
  // GitHub's remedy: stop command processing around it, resuming with an unguessable token.
  const resume = randomBytes(16).toString('hex');
  io.stdout(`::stop-commands::${resume}\n`);
  const code = await main(
    buildArgv(inputs),
    processContext({
      cwd: env.GITHUB_WORKSPACE || process.cwd(),
      env,
      stdout: io.stdout,
      stderr: (t) => {
        errors += t;
        io.stderr(t);
      },
      report: (e) => void events.push(e),
      deferred: (d) => void deferred.push(d),
      fleet: (markdown) => void (fleet = markdown),
    }),
  ).finally(() => io.stdout(`::${resume}::\n`));
  const report = buildActionReport(events, deferred, fleet);
  if (code !== 0) io.stdout(formatErrorAnnotation(inputs.command, errors || `exit status ${code}`));
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, formatOutputs(report));
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, formatSummary(inputs.command, report, code));
  return code;
}
