import { ChildProcess, execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';

/** One synthetic series: labels and the value at each sample (a counter keeps rising). */
export interface Series {
  readonly metric: string;
  readonly labels: Readonly<Record<string, string>>;
  /** Value at sample i (samples every `step` seconds, the last one `step` seconds before start). */
  readonly value: (i: number) => number;
}

export interface PrometheusServer {
  readonly address: string;
  stop(): Promise<void>;
}

export const havePrometheus = (): boolean => onPath('prometheus') && onPath('promtool');

function onPath(tool: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `describe` when prometheus and promtool are installed; otherwise the suite is skipped and says why. */
export function describeWithPrometheus(name: string, body: () => void): void {
  if (havePrometheus()) return describe(name, body);
  // Visible in every run: the tests exist but could not run here.
  console.warn(`SKIPPED ${name}: prometheus/promtool not installed (apt-get install -y prometheus)`);
  describe.skip(`${name} (prometheus not installed)`, body);
}

/**
 * A real Prometheus on 127.0.0.1 with the given series backfilled by `promtool tsdb create-blocks-from
 * openmetrics` into a temporary data directory before it starts; no scraping. Stop it in afterAll.
 */
export async function startPrometheus(series: readonly Series[], samples = 60, step = 15): Promise<PrometheusServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-prom-'));
  const data = path.join(dir, 'data');
  fs.writeFileSync(path.join(dir, 'series.om'), openMetrics(series, samples, step, Math.floor(Date.now() / 1000)));
  execFileSync('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', '-q', path.join(dir, 'series.om'), data]);
  fs.writeFileSync(path.join(dir, 'prometheus.yml'), 'global: {}\n');
  // A port found free can be taken by another test's server before Prometheus binds it: then the
  // one answering is not ours (its flags name another data directory), so start again elsewhere.
  for (let attempt = 1; ; attempt++) {
    const started = await spawnOn(await freePort(), dir, data).catch((e: Error) => {
      if (attempt < 3 && /address already in use/.test(e.message)) return undefined;
      throw e;
    });
    if (started && (await servesDirectory(started.address, data)))
      return { address: started.address, stop: () => stop(started.child, dir) };
    if (started) await stop(started.child, undefined);
    if (attempt === 3) throw new Error('prometheus: another server answered on its port 3 times');
  }
}

async function spawnOn(port: number, dir: string, data: string): Promise<{ address: string; child: ChildProcess }> {
  const child = spawn(
    'prometheus',
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${data}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--storage.tsdb.retention.time=30d',
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  const address = `http://127.0.0.1:${port}`;
  await waitReady(address, child, () => log);
  return { address, child };
}

async function servesDirectory(address: string, data: string): Promise<boolean> {
  const res = await fetch(`${address}/api/v1/status/flags`);
  const body = (await res.json()) as { data?: Record<string, string> };
  return body.data?.['storage.tsdb.path'] === data;
}

function openMetrics(series: readonly Series[], samples: number, step: number, now: number): string {
  const lines: string[] = [];
  for (const metric of [...new Set(series.map((s) => s.metric))]) {
    lines.push(`# TYPE ${metric.replace(/_total$/, '')} counter`);
    for (const s of series.filter((x) => x.metric === metric)) {
      const labels = Object.entries(s.labels)
        .map(([k, v]) => `${k}="${v}"`)
        .join(',');
      for (let i = 0; i < samples; i++) lines.push(`${metric}{${labels}} ${s.value(i)} ${now - (samples - i) * step}`);
    }
  }
  return lines.join('\n') + '\n# EOF\n';
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Polls /-/ready until Prometheus answers (it loads the backfilled blocks first), or it exits. */
async function waitReady(address: string, child: ChildProcess, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`prometheus exited (${child.exitCode}): ${log()}`);
    try {
      const res = await fetch(`${address}/-/ready`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`prometheus did not become ready: ${log()}`);
}

async function stop(child: ChildProcess, dir: string | undefined): Promise<void> {
  if (child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
