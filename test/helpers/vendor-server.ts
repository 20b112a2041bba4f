import * as fs from 'fs';
import * as os from 'os';
import * as http from 'http';
import { AddressInfo } from 'net';
import * as path from 'path';
import { BIN } from './rollout-dir';
import { ProcessResult, runProcess } from './run-process';

/** What a loopback vendor API was sent. */
export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

export interface Answer {
  readonly status?: number;
  readonly json?: unknown;
  /** A body that is not JSON (InfluxDB's annotated CSV), sent as `type`. */
  readonly text?: string;
  readonly type?: string;
  /** A Location header (a redirect). */
  readonly location?: string;
}

export interface VendorServer {
  readonly url: string;
  readonly seen: Seen[];
  /** What the next requests get (by default the handler's answer). */
  answer: (req: Seen) => Answer;
  close(): Promise<void>;
}

/** A loopback server standing in for a metrics vendor's API: records each request, answers JSON. */
export async function startVendor(answer: (req: Seen) => Answer): Promise<VendorServer> {
  const seen: Seen[] = [];
  const state = { answer };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const r: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(r);
      const a = state.answer(r);
      res.statusCode = a.status ?? 200;
      if (a.location) res.setHeader('location', a.location);
      res.setHeader('content-type', a.text !== undefined ? (a.type ?? 'text/plain') : 'application/json');
      res.end(a.text ?? JSON.stringify(a.json));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    get answer() {
      return state.answer;
    },
    set answer(f) {
      state.answer = f;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

export type BinResult = ProcessResult;

/** `bin/rollgen ARGS` in `cwd` (default the repository root) with exactly `env` (and PATH), as a user runs it. */
export function rollgenWith(
  args: readonly string[],
  env: Record<string, string>,
  cwd = path.join(__dirname, '..', '..'),
): Promise<BinResult> {
  return runProcess(BIN, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  });
}

/** A copy of examples/argo-analysis/NAME with its templates' provider address pointed at a loopback server. */
export function exampleAt(name: string, address: RegExp, to: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rollgen-${name}-`));
  fs.cpSync(path.join(__dirname, '../../examples/argo-analysis', name), dir, { recursive: true });
  const file = path.join(dir, 'analysis-templates.yaml');
  const text = fs.readFileSync(file, 'utf8');
  if (!address.test(text)) throw new Error(`${name}: no address matching ${address}`);
  fs.writeFileSync(file, text.replace(address, to));
  return dir;
}
