/** The Action's pure edges: inputs → argv, report → outputs and job summary. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ActionInputs, INPUT_NAMES, buildArgv, parseInputs } from '../../action/src/inputs';
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
    expect(buildArgv(inputs as never)).toEqual(['pr', '--config=rollgen.yaml']);
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
      '--config=ops/rollgen.yaml',
      '--dry-run',
      '--',
      'echo-a',
      'echo-b',
      'echo-c',
    ]);
  });

  test('GIVEN abort, promote or retry WHEN mapped THEN they act through a PR, with --merge, --full and --dry-run as asked', () => {
    expect(
      buildArgv(parseInputs({ INPUT_COMMAND: 'abort', INPUT_APP: 'echo', 'INPUT_DRY-RUN': 'true' }) as never),
    ).toEqual(['abort', '--config=rollgen.yaml', '--pr', '--dry-run', '--', 'echo']);
    expect(
      buildArgv(
        parseInputs({ INPUT_COMMAND: 'promote', INPUT_APP: 'echo', INPUT_FULL: 'true', INPUT_MERGE: 'true' }) as never,
      ),
    ).toEqual(['promote', '--config=rollgen.yaml', '--pr', '--merge', '--full', '--', 'echo']);
    expect(buildArgv(parseInputs({ INPUT_COMMAND: 'retry', INPUT_APP: 'echo' }) as never)).toEqual([
      'retry',
      '--config=rollgen.yaml',
      '--pr',
      '--',
      'echo',
    ]);
    expect(buildArgv(parseInputs({ INPUT_COMMAND: 'validate', INPUT_FULL: 'false' }) as never)).toEqual([
      'validate',
      '--config=rollgen.yaml',
    ]);
  });

  test('GIVEN status WHEN mapped THEN it reads GitHub (--pr), as the Action always has a token', () => {
    expect(buildArgv(parseInputs({ INPUT_COMMAND: 'status', INPUT_APP: 'echo' }) as never)).toEqual([
      'status',
      '--config=rollgen.yaml',
      '--pr',
      '--',
      'echo',
    ]);
  });

  test('GIVEN an app or config input holding flags WHEN parsed THEN refused naming the input, nothing reaches argv', () => {
    expect(parseInputs({ INPUT_COMMAND: 'promote', INPUT_APP: '--full' })).toBe(
      'input "app": "--full" is not an app name (lower-case letters, digits and "-", as in rollgen.yaml); separate names with spaces or commas',
    );
    expect(parseInputs({ INPUT_COMMAND: 'abort', INPUT_APP: 'web --merge' })).toMatch(/^input "app": "--merge" is not/);
    expect(parseInputs({ INPUT_APP: 'echo -f' })).toMatch(/^input "app": "-f" is not/);
    expect(parseInputs({ INPUT_APP: 'Echo' })).toMatch(/^input "app": "Echo" is not/);
    expect(parseInputs({ INPUT_CONFIG: '--help' })).toBe(
      'input "config": "--help" is a path of rollgen.yaml, not a flag',
    );
  });

  test('GIVEN a true input the command has no flag for WHEN parsed THEN refused as the CLI refuses the flag', () => {
    expect(parseInputs({ INPUT_COMMAND: 'pr', INPUT_MERGE: 'true' })).toBe(
      'input "merge" applies to abort, promote and retry, not to pr (rollgen pr has no --merge); remove it or set it to false',
    );
    expect(parseInputs({ INPUT_COMMAND: 'pr', INPUT_FULL: 'true' })).toMatch(
      /^input "full" applies to promote, not to pr/,
    );
    expect(parseInputs({ INPUT_COMMAND: 'abort', INPUT_FULL: 'true' })).toMatch(
      /^input "full" applies to promote, not to abort/,
    );
    expect(parseInputs({ INPUT_COMMAND: 'retry', INPUT_FULL: 'true' })).toMatch(
      /^input "full" applies to promote, not to retry/,
    );
    expect(parseInputs({ INPUT_COMMAND: 'status', 'INPUT_DRY-RUN': 'true' })).toMatch(
      /^input "dry-run" applies to pr, abort, promote and retry, not to status/,
    );
    expect(parseInputs({ INPUT_COMMAND: 'validate', INPUT_MERGE: 'true' })).toMatch(
      /^input "merge" applies to .* not to validate/,
    );
    // false is every input's default: the runner always sets it.
    expect(
      parseInputs({ INPUT_COMMAND: 'validate', INPUT_MERGE: 'false', INPUT_FULL: 'false', 'INPUT_DRY-RUN': 'false' }),
    ).toMatchObject({ command: 'validate' });
  });

  test('GIVEN a misspelt input WHEN parsed THEN refused with the input meant, however the runner named it', () => {
    expect(parseInputs({ INPUT_COMMAND: 'pr', INPUT_DRY_RUN: 'true' })).toBe(
      'input "dry_run" is not an input of rollgen (did you mean "dry-run"?); the inputs are token, config, command, app, wave, dry-run, full, merge, shard (an INPUT_* variable in env: counts as an input too)',
    );
    expect(parseInputs({ INPUT_DRYRUN: 'true' })).toMatch(
      /^input "dryrun" is not an input of rollgen \(did you mean "dry-run"\?\)/,
    );
    expect(parseInputs({ INPUT_FULL_: 'true', INPUT_APPS: 'echo' })).toMatch(
      /^input "full_" is not an input of rollgen \(did you mean "full"\?\); input "apps" is not an input of rollgen \(did you mean "app"\?\)/,
    );
    expect(parseInputs({ INPUT_WHATEVER: 'x' })).toMatch(
      /^input "whatever" is not an input of rollgen; the inputs are/,
    );
  });

  test('GIVEN shard K/N for pr or status WHEN parsed THEN the CLI gets --shard; a bad value, another command or app names are refused', () => {
    const pr = parseInputs({ INPUT_COMMAND: 'pr', INPUT_SHARD: '2/4' });
    expect(pr).toMatchObject({ shard: '2/4' });
    expect(buildArgv(pr as ActionInputs)).toEqual(['pr', '--config=rollgen.yaml', '--shard=2/4']);
    const status = parseInputs({ INPUT_COMMAND: 'status', INPUT_SHARD: '1/1' });
    expect(buildArgv(status as ActionInputs)).toEqual(['status', '--config=rollgen.yaml', '--pr', '--shard=1/1']);
    // The runner sets every input, an unused one to its default "".
    expect(buildArgv(parseInputs({ INPUT_SHARD: '' }) as ActionInputs)).toEqual(['pr', '--config=rollgen.yaml']);
    for (const bad of ['0/4', '5/4', '2', '2/4/1', 'a/b', '-1/4', '--full'])
      expect(parseInputs({ INPUT_SHARD: bad })).toBe(
        `input "shard" takes K/N, the K-th of N shards with 1 <= K <= N, e.g. \${{ matrix.shard }}/4 (got "${bad}")`,
      );
    expect(parseInputs({ INPUT_COMMAND: 'abort', INPUT_SHARD: '1/2' })).toBe(
      'input "shard" applies to pr and status, not to abort',
    );
    expect(parseInputs({ INPUT_SHARD: '1/2', INPUT_APP: 'web' })).toMatch(
      /^inputs "shard" and "app" do not go together/,
    );
  });

  test('GIVEN wave for abort, promote or retry WHEN parsed THEN the CLI gets --wave; another command or a name that is no wave name is refused', () => {
    const abort = parseInputs({ INPUT_COMMAND: 'abort', INPUT_WAVE: 'prod-eu', INPUT_MERGE: 'true' });
    expect(buildArgv(abort as ActionInputs)).toEqual([
      'abort',
      '--config=rollgen.yaml',
      '--pr',
      '--merge',
      '--wave=prod-eu',
    ]);
    expect(buildArgv(parseInputs({ INPUT_COMMAND: 'retry', INPUT_WAVE: '' }) as ActionInputs)).toEqual([
      'retry',
      '--config=rollgen.yaml',
      '--pr',
    ]);
    expect(parseInputs({ INPUT_COMMAND: 'pr', INPUT_WAVE: 'prod' })).toBe(
      'input "wave" applies to abort, promote and retry, not to pr',
    );
    for (const bad of ['--full', 'Prod', 'prod eu'])
      expect(parseInputs({ INPUT_COMMAND: 'abort', INPUT_WAVE: bad })).toBe(
        `input "wave": "${bad}" is not a wave name (lower-case letters, digits and "-", as in rollgen.yaml waves:)`,
      );
  });

  test('INPUT_NAMES are the inputs of action.yml', () => {
    const action = parse(readFileSync(join(__dirname, '..', '..', 'action.yml'), 'utf8'));
    expect([...INPUT_NAMES].sort()).toEqual(Object.keys(action.inputs).sort());
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

  test('GIVEN apps left for the next run WHEN summarised THEN the summary names them and why', () => {
    const reason = 'request budget: 398 of pr.maxRequests 400 spent';
    const summary = formatSummary(
      'pr',
      buildActionReport(
        [],
        [
          { app: 'web', reason },
          { app: 'api|v2', reason },
        ],
      ),
      0,
    );
    expect(summary).toContain(`2 app(s) wait for the next run, which takes them first (${reason}):\n\nweb, api\\|v2\n`);
  });

  test('GIVEN a multi-line error WHEN annotated THEN one workflow command with GitHub escaping', () => {
    expect(formatErrorAnnotation('pr', 'a: 100%\nb\r\n')).toBe('::error title=rollgen pr::a: 100%25%0Ab\n');
  });
});
