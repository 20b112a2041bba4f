// `npm test`: the type check and the linters run alongside jest instead of before it, so CI's two
// cores stay busy (issue 9 item 9). The build comes first because tests run bin/rollgen. Every
// check runs to the end and the command fails when any of them failed; the type check's and the
// linters' output is printed after jest's, so the logs do not interleave. Arguments go to jest.
import { spawn } from 'node:child_process';

const run = (cmd, args, { quiet = false } = {}) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'] });
    let output = '';
    if (quiet) for (const s of [child.stdout, child.stderr]) s.on('data', (d) => (output += d));
    child.on('error', (e) => resolve({ name: [cmd, ...args].join(' '), code: 1, output: String(e) }));
    child.on('close', (code, signal) => resolve({ name: [cmd, ...args].join(' '), code: code ?? signal, output }));
  });

// Through npm, so package.json's typecheck and lint stay the one definition of each.
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const background = [
  run(npm, ['run', '--silent', 'typecheck'], { quiet: true }),
  run(npm, ['run', '--silent', 'lint'], { quiet: true }),
];
const build = await run(process.execPath, ['scripts/build.mjs']);
const jest =
  build.code === 0 ? await run('node_modules/.bin/jest', process.argv.slice(2)) : { name: 'jest', code: 'skipped' };
const results = [build, jest, ...(await Promise.all(background))];
for (const r of results.slice(2)) if (r.output.trim()) process.stdout.write(`\n--- ${r.name}\n${r.output}`);
const failed = results.filter((r) => r.code !== 0);
for (const r of failed) process.stderr.write(`npm test: ${r.name} failed (${r.code})\n`);
process.exit(failed.length > 0 ? 1 : 0);
