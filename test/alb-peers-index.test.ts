/**
 * A command on one ALB app among many listener peers reads the peers' order facts (their Ingresses,
 * rollout steps and committed canary orders) from the app index instead of loading them
 * (src/app/slim-peers.ts), and the orders are byte-identical to a cold index's: a peer whose
 * output or source changed is loaded again and its new orders count.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as apps from '../src/app/inputs';
import { runCli } from './helpers/cli';
import { makeAlbRepo, WEIGHT_ONLY, writeApp } from './helpers/alb-repo';

const PEERS = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
let repo: string;
let cache: string;
let loads: jest.SpyInstance;

beforeEach(() => {
  repo = makeAlbRepo([...PEERS, 'zulu'].map((name) => ({ name, order: 100 })));
  cache = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-alb-index-'));
  loads = jest.spyOn(apps, 'loadSource');
});
afterEach(() => {
  loads.mockRestore();
  fs.rmSync(repo, { recursive: true, force: true });
  fs.rmSync(cache, { recursive: true, force: true });
});

/** The clock a few seconds ahead: files written by the test are no longer too recent to trust their stamp. */
const later = () => new Date(Date.now() + 10_000);
const env = (dir: string) => ({ ...process.env, ROLLGEN_CACHE_DIR: dir });
const loaded = () => [...new Set(loads.mock.calls.map(([loc]) => loc.name as string))].sort();

async function cli(args: string[], dir = cache) {
  const r = await runCli(args, repo, '', { now: later, env: env(dir) });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

/** `render zulu` with the shared index and with a fresh one: the same bytes; returns the apps the warm run parsed. */
async function renderZulu(): Promise<string[]> {
  loads.mockClear();
  const warm = await cli(['render', 'zulu', '--step', '2']);
  const parsed = loaded();
  const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-alb-cold-'));
  try {
    expect(warm).toBe(await cli(['render', 'zulu', '--step', '2'], fresh));
  } finally {
    fs.rmSync(fresh, { recursive: true, force: true });
  }
  expect(warm).toContain('alb.ingress.kubernetes.io/order');
  return parsed;
}

async function advance(app: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) await cli(['advance', app]);
}

test('GIVEN ALB peers with committed canaries and a warm index THEN render APP parses APP alone, and changed peers count', async () => {
  // Every peer commits canary orders: adopt, select, then its header canary (and charlie its weighted one).
  for (const p of PEERS) await advance(p, 3);
  await advance('charlie', 1);
  await renderZulu(); // builds the index, with every peer's committed orders
  expect(await renderZulu()).toEqual(['zulu']);

  // A peer's output changes (it advances): it is loaded again, and its new committed orders hold.
  await advance('bravo', 1);
  expect(await renderZulu()).toEqual(['bravo', 'zulu']);
  expect(await renderZulu()).toEqual(['zulu']);

  // A peer's source changes (its steps no longer need a header canary): loaded again, its demand changes.
  writeApp(path.join(repo, 'apps', 'delta'), { name: 'delta', steps: WEIGHT_ONLY, order: 100 });
  expect(await renderZulu()).toEqual(['delta', 'zulu']);
  expect(await renderZulu()).toEqual(['zulu']);
});

test('GIVEN a peer output edited by hand to hold another order THEN the warm index does not hide it', async () => {
  for (const p of PEERS) await advance(p, 3);
  await renderZulu();
  expect(await renderZulu()).toEqual(['zulu']);
  const dir = path.join(repo, 'deploy', 'alpha');
  const file = fs.readdirSync(dir).find((f) => /order: "\d+"/.test(fs.readFileSync(path.join(dir, f), 'utf8')));
  expect(file).toBeDefined();
  const at = path.join(dir, file!);
  fs.writeFileSync(at, fs.readFileSync(at, 'utf8').replace(/order: "\d+"/, 'order: "3"'));
  expect(await renderZulu()).toEqual(['alpha', 'zulu']);
});

test('GIVEN peers with no output yet and a warm index THEN render APP parses APP alone; a peer output that appears counts', async () => {
  await renderZulu();
  expect(await renderZulu()).toEqual(['zulu']);
  // alpha commits canaries through another index, so the shared one still holds alpha's entry as absent.
  const other = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-alb-other-'));
  try {
    for (let i = 0; i < 3; i++) await cli(['advance', 'alpha'], other);
  } finally {
    fs.rmSync(other, { recursive: true, force: true });
  }
  expect(await renderZulu()).toEqual(['alpha', 'zulu']);
  expect(await renderZulu()).toEqual(['zulu']);
});
