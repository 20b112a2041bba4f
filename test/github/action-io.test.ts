/** The Action's pure edges: inputs → argv, report → outputs and job summary. */
import { buildArgv, parseInputs } from '../../action/src/inputs';
import { formatErrorAnnotation, formatOutputs, formatSummary } from '../../action/src/outputs';
import { buildActionReport, PullRequestEvent } from '../../src/app/report';

describe('inputs', () => {
  test('GIVEN only the defaults action.yml sets WHEN parsed THEN pr on every app with rollgen.yaml, not a dry run', () => {
    const inputs = parseInputs({
      INPUT_TOKEN: 't',
      INPUT_CONFIG: 'rollgen.yaml',
      INPUT_COMMAND: 'pr',
      INPUT_APP: '',
      'INPUT_DRY-RUN': 'false',
    });
    expect(inputs).toEqual({
      token: 't',
      config: 'rollgen.yaml',
      command: 'pr',
      apps: [],
      dryRun: false,
      full: false,
      merge: false,
    });
    expect(buildArgv(inputs as never)).toEqual(['pr', '--config', 'rollgen.yaml']);
  });

  test('GIVEN pr with apps and dry-run WHEN mapped THEN the argv a person would type', () => {
    const inputs = parseInputs({
      INPUT_COMMAND: ' pr ',
      INPUT_APP: 'echo-a, echo-b\necho-c',
      'INPUT_DRY-RUN': 'TRUE',
      INPUT_CONFIG: 'ops/rollgen.yaml',
    });
    expect(buildArgv(inputs as never)).toEqual([
      'pr',
      'echo-a',
      'echo-b',
      'echo-c',
      '--config',
      'ops/rollgen.yaml',
      '--dry-run',
    ]);
  });

  test('GIVEN abort, promote or retry WHEN mapped THEN they act through a PR, with --merge, --full and --dry-run as asked', () => {
    expect(
      buildArgv(parseInputs({ INPUT_COMMAND: 'abort', INPUT_APP: 'echo', 'INPUT_DRY-RUN': 'true' }) as never),
    ).toEqual(['abort', 'echo', '--config', 'rollgen.yaml', '--pr', '--dry-run']);
    expect(
      buildArgv(
        parseInputs({ INPUT_COMMAND: 'promote', INPUT_APP: 'echo', INPUT_FULL: 'true', INPUT_MERGE: 'true' }) as never,
      ),
    ).toEqual(['promote', 'echo', '--config', 'rollgen.yaml', '--pr', '--merge', '--full']);
    expect(buildArgv(parseInputs({ INPUT_COMMAND: 'retry', INPUT_APP: 'echo' }) as never)).toEqual([
      'retry',
      'echo',
      '--config',
      'rollgen.yaml',
      '--pr',
    ]);
    expect(
      buildArgv(parseInputs({ INPUT_COMMAND: 'validate', INPUT_FULL: 'true', INPUT_MERGE: 'true' }) as never),
    ).toEqual(['validate', '--config', 'rollgen.yaml']);
  });

  test('GIVEN no token input WHEN parsed THEN GITHUB_TOKEN is used', () => {
    expect(parseInputs({ GITHUB_TOKEN: 'job' })).toMatchObject({ token: 'job', command: 'pr' });
  });

  test('GIVEN an unknown command or a non-boolean dry-run WHEN parsed THEN a message naming the input', () => {
    expect(parseInputs({ INPUT_COMMAND: 'deploy' })).toBe(
      'input "command" must be one of pr, abort, promote, retry, validate, status; got "deploy"',
    );
    expect(parseInputs({ 'INPUT_DRY-RUN': 'yes' })).toBe('input "dry-run" must be true or false; got "yes"');
    expect(parseInputs({ INPUT_MERGE: 'maybe' })).toBe('input "merge" must be true or false; got "maybe"');
  });
});

describe('outputs and summary', () => {
  const events: PullRequestEvent[] = [
    { app: 'echo-a', action: 'merged', number: 7, url: 'https://github.com/o/r/pull/7', step: 'step 1' },
    { app: 'echo-a', action: 'opened', number: 9, url: 'https://github.com/o/r/pull/9', step: 'step 2' },
    { app: 'echo|b', action: 'updated', number: 8, url: 'https://github.com/o/r/pull/8' },
  ];

  test('GIVEN PR events WHEN reported THEN grouped by action in order, and the outputs carry the numbers', () => {
    const report = buildActionReport(events);
    expect(report.opened.map((e) => e.number)).toEqual([9]);
    expect(report.merged.map((e) => e.number)).toEqual([7]);
    expect(formatOutputs(report).split('\n').slice(0, 3)).toEqual(['opened=[9]', 'updated=[8]', 'merged=[7]']);
    expect(JSON.parse(formatOutputs(report).split('\n')[3].slice('report='.length))).toEqual(report);
  });

  test('GIVEN PR events WHEN summarised THEN a Markdown table row per PR with escaped cells', () => {
    expect(formatSummary('pr', buildActionReport(events), 0)).toBe(
      [
        '### rollgen pr',
        '',
        '| app | pull request | what | step |',
        '|---|---|---|---|',
        '| echo-a | [#9](https://github.com/o/r/pull/9) | opened | step 2 |',
        '| echo\\|b | [#8](https://github.com/o/r/pull/8) | updated |  |',
        '| echo-a | [#7](https://github.com/o/r/pull/7) | merged | step 1 |',
        '',
        'Finished successfully.',
        '',
      ].join('\n'),
    );
    const waiting: PullRequestEvent = {
      app: 'echo-a',
      action: 'waiting',
      number: 9,
      url: 'https://github.com/o/r/pull/9',
      reason: 'waiting for health: status kustomization/echo-a/* to report success',
    };
    expect(formatSummary('pr', buildActionReport([waiting]), 0)).toContain(
      '| app | pull request | waiting for |\n|---|---|---|\n| echo-a | [#9](https://github.com/o/r/pull/9) | waiting for health: status kustomization/echo-a/* to report success |',
    );
    expect(formatSummary('abort', buildActionReport([]), 1)).toMatch(
      /No pull requests were opened, updated, merged or closed\.\n\nFailed with exit status 1/,
    );
  });

  test('GIVEN a multi-line error WHEN annotated THEN one workflow command with GitHub escaping', () => {
    expect(formatErrorAnnotation('pr', 'a: 100%\nb\r\n')).toBe('::error title=rollgen pr::a: 100%25%0Ab\n');
  });
});
