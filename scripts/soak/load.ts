import autocannon from 'autocannon';

/**
 * The soak's load generator, run as its own process so it does not share the API's event loop:
 * mixed traffic (reports, server batches, reads, pages) at a fixed overall rate. Prints one JSON line.
 */
interface LoadPlan {
  url: string;
  seconds: number;
  rate: number;
  publishableKey: string;
  secretKey: string;
  apiKey: string;
  players: { id: string; token: string }[];
}

const plan = JSON.parse(process.argv[2]!) as LoadPlan;
const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;
let score = 0;

function nextRequest(): { method: string; path: string; headers: Record<string, string>; body?: string } {
  const player = pick(plan.players);
  const client = { 'Publishable-Key': plan.publishableKey, 'Anonymous-Authorization': player.token, 'Content-Type': 'application/json' };
  const roll = Math.random();
  score += 1;
  if (roll < 0.45) {
    const board = roll < 0.3 ? 'solo' : 'clans';
    return { method: 'POST', path: `/api/v1/client/leaderboards/${board}/report_score`, headers: client, body: JSON.stringify({ score }) };
  }
  if (roll < 0.5) {
    return {
      method: 'POST',
      path: '/api/v1/server/report_scores',
      headers: { 'Secret-Key': plan.secretKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ player_id: player.id, scores: [score, score], leaderboard_ids: ['solo', 'clans'] }),
    };
  }
  if (roll < 0.65)
    return { method: 'GET', path: `/api/v1/client/leaderboards/solo/players/${player.id}`, headers: { 'Secret-Key': plan.secretKey } };
  if (roll < 0.75) return { method: 'GET', path: '/api/v1/client/leaderboards/solo/around_me?range=5', headers: client };
  if (roll < 0.85) {
    const offset = Math.floor(Math.random() * plan.players.length);
    return { method: 'GET', path: `/api/v1/third_party/leaderboards/solo?limit=100&offset=${offset}`, headers: { 'Api-Key': plan.apiKey } };
  }
  if (roll < 0.9) return { method: 'GET', path: '/api/v1/third_party/leaderboards/clans?clan=true', headers: { 'Api-Key': plan.apiKey } };
  if (roll < 0.95) return { method: 'GET', path: `/leaderboards/solo?token=${encodeURIComponent(player.token)}`, headers: {} };
  return { method: 'GET', path: `/api/v1/users/${player.id}/avatar.png?size=64`, headers: {} };
}

// overallRate and statusCodeStats are autocannon's too, beyond the part the bench declares.
const options = {
  url: plan.url,
  connections: 50,
  duration: plan.seconds,
  ...(plan.rate > 0 ? { overallRate: plan.rate } : {}), // 0: as fast as it goes (calibration)
  requests: [{ setupRequest: (request: object) => ({ ...request, ...nextRequest() }) }],
};
const result = (await autocannon(options as Parameters<typeof autocannon>[0])) as Awaited<ReturnType<typeof autocannon>> & {
  statusCodeStats: Record<string, { count: number }>;
};
process.stdout.write(
  JSON.stringify({
    requests: result.requests.total,
    rate: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count])),
  }) + '\n',
);
