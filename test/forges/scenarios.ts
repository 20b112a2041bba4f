/**
 * One table of flow scenarios, run against every forge's test server (github-flow.test.ts,
 * gitlab-flow.test.ts, gitea-flow.test.ts) through bin/rollgen `pr` runs as a scheduled CI job makes
 * them: the same rollgen.yaml and app, the same outcomes, whatever the forge. Each scenario returns
 * the API requests of its runs, which the forge's test prints.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Change, ForgeHarness, ForgeRun } from './harness';

export interface Scenario {
  readonly name: string;
  /** Extra rollgen.yaml lines under the app (indented 4) and at the top level. */
  readonly config?: { readonly app?: string; readonly top?: string };
  readonly run: (w: World) => Promise<void>;
}

const APP_CONFIG = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n    gates: {unpaused: automatic}\n';
const HOUR = 3_600_000;
/** Flux's notification-controller context for the echo Kustomization (kind/name/uid prefix): the same on every forge. */
export const FLUX_CONTEXT = 'kustomization/echo/6f2a1b3c';

/** A harness with the scenario's clock (dates in the past, so git history carries them) and run log. */
export class World {
  readonly runs: ForgeRun[] = [];
  /** Six hours ago: every act of a person is dated after it, up to now. */
  readonly t0 = new Date(Math.floor((Date.now() - 6 * HOUR) / 1000) * 1000);

  /** Post Flux's success on main before each run (a health-gated app getting to its step). */
  healthyOnTheWay = false;

  constructor(readonly h: ForgeHarness) {}

  async pr(): Promise<ForgeRun> {
    if (this.healthyOnTheWay) this.h.postStatus(this.main(), FLUX_CONTEXT, 'success');
    const r = await this.h.pr();
    this.runs.push(r);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    return r;
  }

  open(branch: string): Change {
    const found = this.h.changes().find((c) => c.branch === branch && c.state === 'open');
    if (!found)
      throw new Error(
        `no open change on ${branch}: ${this.h
          .changes()
          .map((c) => `${c.branch} ${c.state}`)
          .join(', ')}`,
      );
    return found;
  }

  state(branch: string): Change['state'] | undefined {
    return this.h.changes().find((c) => c.branch === branch)?.state;
  }

  /** The commit main points at on the forge. */
  main(): string {
    return this.h.mainHead();
  }

  at(hours: number): Date {
    return new Date(this.t0.getTime() + hours * HOUR);
  }

  /** echo adopted, a new image on main, steps 1..k merged by a person at the given hours (or 1 + step), step k+1 open. */
  async toStep(k: number, mergedAt: (step: number) => Date = (s) => this.at(1 + s)): Promise<void> {
    await this.pr();
    this.h.mergeAsPerson(this.open('rollgen/echo/adopt').number, this.at(0.5));
    await this.pr(); // opens the selector switch
    await this.pr(); // merges it (automatic)
    expect(this.state('rollgen/echo/select')).toBe('merged');
    this.h.pushToMain((repo) => bumpImage(repo, '2.54'), 'echo 2.54', this.at(1));
    await this.pr();
    for (let s = 1; s <= k; s++) {
      this.h.mergeAsPerson(this.open(`rollgen/echo/step-${s}`).number, mergedAt(s));
      // Step k's own health is the scenario's to post.
      if (s === k) this.healthyOnTheWay = false;
      await this.pr();
    }
    this.open(`rollgen/echo/step-${k + 1}`);
  }
}

function bumpImage(repo: string, tag: string): void {
  const file = join(repo, 'apps', 'echo', 'deployment.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/image: (\S+?):\S+/, `image: $1:${tag}`));
}

/** rollgen.yaml for a scenario. */
export function configOf(s: Scenario): string {
  return `${APP_CONFIG}${s.config?.app ?? ''}${s.config?.top ?? ''}`;
}

/** The analysis template the analysis scenarios put in the app's source: Argo's web provider on `url`. */
export const latencyTemplate = (url: string) => `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: latency
spec:
  metrics:
    - name: p99
      successCondition: result < 100
      failureCondition: result > 500
      provider:
        web:
          url: ${url}
          jsonPath: "{$.p99}"
`;

const ANALYSIS = '    analysis:\n      steps:\n        - step: 3\n          templates: [{templateName: latency}]\n';
const HEALTH = "health:\n  statuses: ['kustomization/{name}/*']\n";

/** Where the analysis scenarios' web provider is: a loopback server answering {p99}, started by serveAnalysis. */
export const analysisServer = { url: '', p99: 50 };

/** Starts the analysis scenarios' loopback web server for the test file that calls it (in its top scope). */
export function serveAnalysis(): void {
  let server: http.Server;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end(JSON.stringify({ p99: analysisServer.p99 })));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    analysisServer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/latency`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
}

/** Step 3 merged and measured; returns the commit that landed it, where the analysis is recorded. */
async function analysed(w: World, p99: number): Promise<string> {
  analysisServer.p99 = p99;
  w.h.pushToMain(
    (repo) => writeFileSync(join(repo, 'apps', 'echo', 'analysis.yaml'), latencyTemplate(analysisServer.url)),
    'latency analysis',
    w.at(0),
  );
  // Step 2's 10-minute pause is long over: step 3 merges by itself, then step 4 waits for the analysis.
  await w.toStep(2);
  await w.pr();
  expect(w.state('rollgen/echo/step-3')).toBe('merged');
  const landing = w.main();
  // The run that sees step 3 merged takes the measurement.
  await w.pr();
  return landing;
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'start: the adopt change request, then one per step; a manual gate waits for a person; a rerun changes nothing',
    run: async (w) => {
      await w.pr();
      const adopt = w.open('rollgen/echo/adopt');
      expect(adopt.labels).toEqual(expect.arrayContaining(['rollgen', 'rollgen:manual']));
      expect(adopt.body).toContain('<!-- rollgen:');
      const rerun = await w.pr();
      expect(rerun.stdout).toBe(`echo: manual gate: a person merges ${adopt.ref}\n`);
      // One paged scan of open and recently closed change requests together.
      expect(rerun.requests).toBe(1);
      expect(w.h.changes()).toHaveLength(1);
      w.h.mergeAsPerson(adopt.number, w.at(0.5));
      await w.pr();
      await w.pr();
      w.h.pushToMain((repo) => bumpImage(repo, '2.54'), 'echo 2.54', w.at(1));
      await w.pr();
      const step1 = w.open('rollgen/echo/step-1');
      expect(step1.labels).toContain('rollgen:manual');
      // Manual: however many runs, nothing merges it but a person.
      expect((await w.pr()).stdout).toBe(`echo: manual gate: a person merges ${step1.ref}\n`);
      expect(w.state('rollgen/echo/step-1')).toBe('open');
      w.h.mergeAsPerson(step1.number, w.at(2));
      const next = await w.pr();
      const step2 = w.open('rollgen/echo/step-2');
      expect(next.stdout).toContain(`echo: opened ${step2.ref}`);
      // status --pr names the forge and its own reference for the open change request.
      const status = await w.h.pr(['status', '--pr']);
      const host = { github: 'GitHub', gitlab: 'GitLab', gitea: 'Gitea' }[w.h.forge];
      const kind = w.h.forge === 'gitlab' ? 'MR' : 'PR';
      expect(status.stdout).toMatch(new RegExp(`${host}: +${kind} ${step2.ref} \\(step 2\\) open`));
    },
  },
  {
    name: 'a whole rollout through scheduled runs alone: people merge only the manual gates, rollgen the rest, to cleanup',
    run: async (w) => {
      // People merge in the past (history then dates the 10-minute pause as long over), a second apart.
      let past = Date.now() - 1_800_000;
      for (let run = 0; run < 24 && w.state('rollgen/echo/cleanup') !== 'merged'; run++) {
        if (run === 3) w.h.pushToMain((repo) => bumpImage(repo, '2.54'), 'echo 2.54', new Date((past += 1000)));
        await w.pr();
        for (const c of w.h.changes().filter((x) => x.state === 'open' && x.labels.includes('rollgen:manual')))
          w.h.mergeAsPerson(c.number, new Date((past += 1000)));
      }
      const order = w.h.changes().map((c) => `${c.branch.split('/')[2]} ${c.state}`);
      expect(order).toEqual(
        ['adopt', 'select', 'step-1', 'step-2', 'step-3', 'step-4', 'promote', 'cleanup'].map((b) => `${b} merged`),
      );
      expect((await w.pr()).stdout).toBe('echo: up to date\n');
    },
  },
  {
    name: 'timed gate from history: the pause counts from when the step merged (its commit date), not from when rollgen saw it',
    run: async (w) => {
      const step2At = new Date(Math.floor(Date.now() / 1000) * 1000 - 5 * 60_000);
      await w.toStep(2, (s) => (s === 2 ? step2At : w.at(1 + s)));
      const step3 = w.open('rollgen/echo/step-3');
      expect(step3.labels).toContain('rollgen:timed');
      const r = await w.pr();
      expect(r.stdout).toContain(
        `timed gate: ${step3.ref} may merge from ${new Date(step2At.getTime() + 600_000).toISOString()}`,
      );
      expect(w.state('rollgen/echo/step-3')).toBe('open');
    },
  },
  {
    name: 'health: a step waits for the engine, merges on its success, and a failure aborts by itself',
    config: { top: HEALTH },
    run: async (w) => {
      w.healthyOnTheWay = true;
      await w.toStep(2);
      const step3 = w.open('rollgen/echo/step-3');
      let r = await w.pr();
      expect(r.stdout).toContain('echo: waiting for health: status kustomization/echo/* to report success');
      expect(w.open('rollgen/echo/step-3').body).toContain('- Health: waiting for status kustomization/echo/*');
      // Success arrived an hour ago: the step's 10-minute pause, counted from it, is over.
      w.h.postStatus(w.main(), FLUX_CONTEXT, 'success', w.at(5));
      r = await w.pr();
      expect(w.state('rollgen/echo/step-3')).toBe('merged');
      expect(r.stdout).toContain(`echo: merge ${step3.ref}`);
      await w.pr();
      w.open('rollgen/echo/step-4');
      w.h.postStatus(w.main(), FLUX_CONTEXT, 'failure');
      r = await w.pr();
      expect(w.state('rollgen/echo/abort')).toBe('merged');
      const abort = w.h.changes().find((c) => c.branch === 'rollgen/echo/abort')!;
      expect(abort.body).toContain('rollgen aborts: the GitOps engine reports the step failed');
      expect(w.state('rollgen/echo/step-4')).toBe('closed');
    },
  },
  {
    name: 'analysis passes: recorded on the forge, the next step merges',
    config: { app: ANALYSIS },
    run: async (w) => {
      const landing = await analysed(w, 50);
      expect(w.h.analysisRecords(landing, 'rollgen analysis: echo')).toEqual(['success']);
      const step4 = w.open('rollgen/echo/step-4');
      const r = await w.pr();
      expect(r.stdout).toContain(`echo: merge ${step4.ref}`);
      expect(w.state('rollgen/echo/step-4')).toBe('merged');
    },
  },
  {
    name: 'analysis fails: recorded on the forge, rollgen aborts by itself',
    config: { app: ANALYSIS },
    run: async (w) => {
      const landing = await analysed(w, 900);
      expect(w.h.analysisRecords(landing, 'rollgen analysis: echo')).toEqual(['failure']);
      expect(w.state('rollgen/echo/abort')).toBe('merged');
      expect(w.state('rollgen/echo/step-4')).toBeUndefined();
    },
  },
  {
    name: 'a person closes the change request: the app holds with one note; a rerun opens nothing',
    run: async (w) => {
      await w.toStep(1);
      const step2 = w.open('rollgen/echo/step-2');
      w.h.closeAsPerson(step2.number);
      const held = await w.pr();
      expect(held.stdout).toContain(`echo: held: ${step2.ref} was closed without merging`);
      expect(held.stdout).toContain(`echo: note on ${step2.ref} that echo is held`);
      const again = await w.pr();
      expect(again.stdout).toBe(
        `echo: held: ${step2.ref} was closed without merging; push a new revision, or run rollgen retry|abort echo --pr\n`,
      );
      expect(w.h.changes().filter((c) => c.branch === 'rollgen/echo/step-2')).toHaveLength(1);
    },
  },
  {
    name: 'a 502 on the first call of every endpoint: the run still does its work once, and a rerun changes nothing',
    run: async (w) => {
      await w.toStep(0);
      w.h.mergeAsPerson(w.open('rollgen/echo/step-1').number, w.at(2));
      w.h.failFirstCallOfEveryEndpoint();
      const r = await w.pr();
      const step2 = w.h.changes().filter((c) => c.branch === 'rollgen/echo/step-2');
      expect(step2).toHaveLength(1);
      expect(r.stdout).toContain(`echo: opened ${step2[0].ref}`);
      expect(step2[0].labels).toEqual(expect.arrayContaining(['rollgen', 'rollgen:manual']));
      const rerun = await w.pr();
      expect(rerun.stdout).toBe(`echo: manual gate: a person merges ${step2[0].ref}\n`);
      expect(rerun.requests).toBe(1);
    },
  },
];

/** Runs every scenario (or those `only` picks) against a fresh server of one forge; prints the requests per run. */
export function runScenarios<H extends ForgeHarness>(
  makeHarness: () => H,
  options: { readonly only?: (name: string) => boolean; readonly check?: (h: H, w: World) => void } = {},
): void {
  for (const s of SCENARIOS.filter((x) => options.only?.(x.name) ?? true)) {
    test(s.name, async () => {
      const h = makeHarness();
      try {
        const w = new World(h);
        await h.start(['echo'], configOf(s), w.t0);
        await s.run(w);
        expect(h.violations()).toEqual([]);
        options.check?.(h, w);
        const counts = w.runs.map((r) => r.requests);
        process.stdout.write(
          `${h.forge} requests per run (${s.name.split(':')[0]}): ${counts.join(' ')} = ${counts.reduce((a, b) => a + b, 0)} in ${counts.length} runs\n`,
        );
      } finally {
        await h.stop();
      }
    });
  }
}
