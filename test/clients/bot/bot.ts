/**
 * A game bot written only against the types openapi-typescript generates from the service's
 * /openapi.json, as a developer without an SDK would write it. The typed-client test copies it next to
 * the generated `openapi.d.ts`, compiles it in strict mode and runs it; it is not part of the project's
 * own build (tsconfig.json excludes this folder), since those types exist only at test time.
 *
 * Every value it reports is copied from a response into the bot's own types below (`rank: number`), so
 * a response schema that changes under it (a field renamed, retyped, made nullable or gone) stops the compile.
 *
 * Usage: node bot.js '<orders as JSON>'; prints what it saw as one line of JSON.
 */
import createClient from 'openapi-fetch';
import type { paths } from './openapi.js';

interface Orders {
  baseUrl: string;
  publishableKey: string;
  secretKey: string;
  apiKey: string;
  leaderboardId: string;
  score: number;
  pageSize: number;
  alias: { type: string; id: string };
}

/** What the bot expects of the service, in its own words. */
interface Report {
  submitted_score: number;
  best_score: number;
  improved: boolean;
  rank: number;
  total: number;
}
interface Entry {
  player_id: string;
  score: number;
  rank: number;
}
interface Page {
  limit: number;
  offset: number;
  total: number;
  entries: Entry[];
}
interface LeaderboardSettings {
  leaderboard_id: string;
  name: string;
  sort_order: 'desc' | 'asc';
  season: number;
  next_reset_at: string | null;
}
interface PlayerRecord extends Entry {
  leaderboard_id: string;
  display_name: string;
  total: number;
}

const orders = JSON.parse(process.argv[2] ?? '') as Orders;
const { baseUrl, leaderboardId, pageSize } = orders;

/** What a failed call said, for the bot's exit message. */
function refused(operation: string, response: Response, error: unknown): Error {
  return new Error(`${operation}: HTTP ${response.status} ${JSON.stringify(error)}`);
}

const game = createClient<paths>({ baseUrl, headers: { 'Publishable-Key': orders.publishableKey } });
const signup = await game.POST('/api/v1/signup/anonymous', { body: {} });
if (!signup.data) throw refused('signUpAnonymous', signup.response, signup.error);
const token: string = signup.data.token;
const playerId: string = signup.data.player_id;

const player = createClient<paths>({
  baseUrl,
  headers: { 'Publishable-Key': orders.publishableKey, 'Anonymous-Authorization': token },
});
const report = await player.POST('/api/v1/client/leaderboards/{leaderboard_id}/report_score', {
  params: { path: { leaderboard_id: leaderboardId } },
  body: { score: orders.score },
});
if (!report.data) throw refused('reportScore', report.response, report.error);
const reported: Report = {
  submitted_score: report.data.submitted_score,
  best_score: report.data.best_score,
  improved: report.data.improved,
  rank: report.data.rank,
  total: report.data.total,
};

/** Every page of the leaderboard, `pageSize` entries at a time, as the service served them. */
const pages: Page[] = [];
for (let offset = 0, total = 1; offset < total; offset += pageSize) {
  const page = await player.GET('/api/v1/client/leaderboards/{leaderboard_id}', {
    params: { path: { leaderboard_id: leaderboardId }, query: { limit: pageSize, offset } },
  });
  if (!page.data) throw refused('getLeaderboard', page.response, page.error);
  total = page.data.total;
  const entries: Entry[] = [];
  for (const entry of page.data.entries) {
    // A players view lists player entries; the `in` check is the narrowing the generated union asks for.
    if (!('player_id' in entry)) throw new Error(`getLeaderboard: a clan entry on a players view: ${JSON.stringify(entry)}`);
    entries.push({ player_id: entry.player_id, score: entry.score, rank: entry.rank });
  }
  pages.push({ limit: page.data.limit, offset: page.data.offset, total: page.data.total, entries });
}

const thirdParty = createClient<paths>({ baseUrl, headers: { 'Api-Key': orders.apiKey } });
const byAlias = await thirdParty.GET('/api/v1/third_party/leaderboards/{leaderboard_id}/player/{alias_id}', {
  params: { path: { leaderboard_id: leaderboardId, alias_id: orders.alias.id }, query: { alias_type: orders.alias.type } },
});
if (!byAlias.data) throw refused('getRecordByAlias', byAlias.response, byAlias.error);
const record = byAlias.data;
if (!('player_id' in record)) throw new Error(`getRecordByAlias: a clan record without clan=true: ${JSON.stringify(record)}`);
const aliasRecord: PlayerRecord = {
  leaderboard_id: record.leaderboard_id,
  player_id: record.player_id,
  display_name: record.display_name,
  score: record.score,
  rank: record.rank,
  total: record.total,
};

// The game server reads the leaderboard's settings back.
const server = createClient<paths>({ baseUrl, headers: { 'Secret-Key': orders.secretKey } });
const board = await server.GET('/api/v1/server/leaderboards/{leaderboard_id}', { params: { path: { leaderboard_id: leaderboardId } } });
if (!board.data) throw refused('getServerLeaderboard', board.response, board.error);
const settings: LeaderboardSettings = {
  leaderboard_id: board.data.leaderboard_id,
  name: board.data.name,
  sort_order: board.data.sort_order,
  season: board.data.season,
  next_reset_at: board.data.next_reset_at,
};

console.log(JSON.stringify({ player_id: playerId, report: reported, pages, alias_record: aliasRecord, settings }));
