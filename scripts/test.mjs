// `npm test`: the type check and the linters run alongside jest instead of before it, so CI's two
// cores stay busy (issue 9 item 9). They run at a lower priority: jest's files are the longest
// chain, and its workers often wait (on GitHub's write pacing, servers, child processes); the
// background work fills those waits instead of taking cores from jest. The build comes first
// because tests run bin/rollgen, unless dist/ is already the build of these sources (`npm ci` ran
// it as the prepare script; scripts/build-stamp.mjs). Every check runs to the end and the command
// fails when any of them failed; the type check's and the linters' output is printed after jest's,
// so the logs do not interleave. Arguments go to jest.
import { spawn } from 'node:child_process';
import { distIsCurrent } from './build-stamp.mjs';

const run = (cmd, args, { quiet = false, name = [cmd, ...args].join(' ') } = {}) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'] });
    let output = '';
    if (quiet) for (const s of [child.stdout, child.stderr]) s.on('data', (d) => (output += d));
    child.on('error', (e) => resolve({ name, code: 1, output: String(e) }));
    child.on('close', (code, signal) => resolve({ name, code: code ?? signal, output }));
  });

/** Runs `cmd args` through a node that lowers its own priority first: npm and what it starts inherit it. */
const LOWER_THEN_RUN = `require('os').setPriority(10);
const r = require('child_process').spawnSync(process.argv[1], process.argv.slice(2), { stdio: 'inherit' });
process.exit(r.status ?? 1);`;
const inBackground = (cmd, args) =>
  run(process.execPath, ['-e', LOWER_THEN_RUN, cmd, ...args], { quiet: true, name: [cmd, ...args].join(' ') });

// Through npm, so package.json's typecheck and lint stay the one definition of each.
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const background = [
  inBackground(npm, ['run', '--silent', 'typecheck']),
  inBackground(npm, ['run', '--silent', 'lint']),
];
const build = distIsCurrent(process.cwd())
  ? { name: 'build (dist/ is current)', code: 0 }
  : await run(process.execPath, ['scripts/build.mjs']);
const jest =
  build.code === 0 ? await run('node_modules/.bin/jest', process.argv.slice(2)) : { name: 'jest', code: 'skipped' };
const results = [build, jest, ...(await Promise.all(background))];
for (const r of results.slice(2)) if (r.output.trim()) process.stdout.write(`\n--- ${r.name}\n${r.output}`);
const failed = results.filter((r) => r.code !== 0);
for (const r of failed) process.stderr.write(`npm test: ${r.name} failed (${r.code})\n`);
process.exit(failed.length > 0 ? 1 : 0);
