/** What the Action writes to GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, as text. Pure; main.ts writes it. */
import type { ActionReport, PullRequestEvent } from '../../src/app/report';

/** `name=value` lines; values are one-line JSON, so the heredoc form is never needed. */
export function formatOutputs(report: ActionReport): string {
  const numbers = (events: readonly PullRequestEvent[]) => JSON.stringify(events.map((e) => e.number));
  const outputs: [string, string][] = [
    ['opened', numbers(report.opened)],
    ['updated', numbers(report.updated)],
    ['merged', numbers(report.merged)],
    ['report', JSON.stringify(report)],
  ];
  return outputs.map(([name, value]) => `${name}=${value}\n`).join('');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** A Markdown table of the PRs touched, one row per event, then the outcome. */
export function formatSummary(command: string, report: ActionReport, exitCode: number): string {
  const events = [...report.opened, ...report.updated, ...report.merged, ...report.closed];
  const lines = [`### rollgen ${command}`, ''];
  if (events.length === 0) lines.push('No pull requests were opened, updated, merged or closed.');
  else {
    lines.push('| app | pull request | what | step |', '|---|---|---|---|');
    for (const e of events)
      lines.push(`| ${cell(e.app)} | [#${e.number}](${e.url}) | ${e.action} | ${cell(e.step ?? '')} |`);
  }
  if (report.waiting.length > 0) {
    lines.push('', '| app | pull request | waiting for |', '|---|---|---|');
    for (const e of report.waiting)
      lines.push(`| ${cell(e.app)} | [#${e.number}](${e.url}) | ${cell(e.reason ?? '')} |`);
  }
  if (report.deferred.length > 0) {
    lines.push(
      '',
      `${report.deferred.length} app(s) wait for the next run, which takes them first (${cell(report.deferred[0].reason)}):`,
      '',
    );
    lines.push(report.deferred.map((d) => cell(d.app)).join(', '));
  }
  if (report.fleet) lines.push('', report.fleet.trimEnd());
  lines.push(
    '',
    exitCode === 0 ? 'Finished successfully.' : `Failed with exit status ${exitCode}; the step log has the error.`,
  );
  return lines.join('\n') + '\n';
}

/** A workflow command that shows the error as an annotation (GitHub's escaping for data). */
export function formatErrorAnnotation(command: string, message: string): string {
  const data = message.trim().replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  return `::error title=rollgen ${command}::${data}\n`;
}
