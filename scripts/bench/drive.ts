import autocannon from 'autocannon';
import { requestMaker, type Scenario, type ScenarioContext } from './scenarios.js';

/**
 * One scenario's load, in its own process so the load generator never shares an event loop with
 * the orchestrator. Input: BENCH_DRIVE (JSON) in the environment. Output: one JSON line on stdout.
 */
export interface DriveInput {
  url: string;
  scenario: Scenario;
  ctx: ScenarioContext;
  duration: number;
  warmup: number;
  connections: number;
}

export interface DriveResult {
  /** The route answered 404 not_found: another engineer has not built it yet. */
  missing: boolean;
  probe: { status: number; body: string };
  rps: number;
  rpsMean: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  /** Every request sent, warm-up and probe included: what the server's CPU time is divided by. */
  sent: number;
  /** CPU time (user + system) this load generator used, start-up included, in seconds. */
  driverCpuSeconds: number;
}

async function main(): Promise<void> {
  const input = JSON.parse(process.env.BENCH_DRIVE ?? '') as DriveInput;
  const make = requestMaker(input.scenario, input.ctx);

  const sample = make();
  const response = await fetch(input.url + sample.path, {
    method: sample.method,
    headers: sample.headers,
    ...(sample.body !== undefined && { body: sample.body }),
  });
  const body = await response.text();
  const probe = { status: response.status, body: body.slice(0, 300) };
  if (response.status === 404 && /"code"\s*:\s*"not_found"/.test(body)) {
    return print({ missing: true, probe, rps: 0, rpsMean: 0, p50: 0, p99: 0, errors: 0, requests: 0, sent: 1, driverCpuSeconds: 0 });
  }

  const options = {
    url: input.url,
    connections: input.connections,
    // Every request is rebuilt with a random player, score, offset or token.
    requests: [{ setupRequest: () => make() }],
  };
  const warmup = await autocannon({ ...options, duration: input.warmup });
  const result = await autocannon({ ...options, duration: input.duration });
  print({
    missing: false,
    probe,
    rps: result.requests.p50,
    rpsMean: result.requests.mean,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors, // autocannon counts timeouts among errors
    requests: result.requests.total,
    sent: 1 + warmup.requests.total + result.requests.total,
    driverCpuSeconds: cpuSecondsUsed(),
  });
}

function cpuSecondsUsed(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

function print(result: DriveResult): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`load driver failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
