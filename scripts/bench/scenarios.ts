import { randomUUID } from 'node:crypto';
import { TokenCodec } from '../../engine/tokens.js';
import { BOARDS, METADATA_BYTES, REPORTED_SCORE_CEILING, metadataOf, playerId, randomBelow } from './fixtures.js';

/** What a load driver needs to build requests: credentials and the shape of the seeded data. */
export interface ScenarioContext {
  gameId: string;
  publishableKey: string;
  secretKey: string;
  apiKey: string | null;
  tokenSecret: string;
  /** Players with indexes below this exist and hold a score on `board`. */
  players: number;
}

export type ScenarioKind =
  | 'bare-get'
  | 'bare-post'
  | 'bare-rank'
  | 'bare-report'
  | 'bare-page'
  | 'bare-around'
  | 'bare-batch'
  | 'report'
  | RuleKind
  | 'server-batch'
  | 'record'
  | 'third-party-page'
  | 'list-ranks'
  | 'around-me'
  | 'page'
  | 'avatar'
  | 'readyz';

/** report_score under the score rules: another kept-score rule, metadata, an Idempotency-Key. */
export type RuleKind = 'report-latest' | 'report-sum' | 'report-metadata' | 'report-keyed' | 'report-window' | 'report-entries' | TieKind;

/** report_score on a board breaking ties (scripts/bench/ties-figures.ts): by who was first, or by 4 tiebreakers. */
export type TieKind = 'report-earliest' | 'report-tiebreakers';

export interface Scenario {
  label: string;
  kind: ScenarioKind;
  method: 'GET' | 'POST';
  board: string;
  /** Players are drawn from the first `players` indexes (the rank read compares boards on the same players). */
  players?: number;
  /** Spread over this many boards, named `<board>-<i>`, instead of the one `board`. */
  boards?: number;
  /** Reads of this season (`season=N`) instead of the current one. */
  season?: number;
  /** Its rung's label: the bare app making the calls this scenario's design needs (BARE_SCENARIOS). */
  rung?: string;
  /**
   * A variant of `client report_score` judged against it (a score rule, metadata, an Idempotency-Key):
   * run with 1 API process only, right after it, and shorter under --quick.
   */
  variant?: boolean;
}

export interface BuiltRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export const REPORT_LABEL = 'client report_score';

export const BARE_GET_LABEL = 'bare JSON GET';
export const BARE_POST_LABEL = 'bare JSON POST';
/**
 * The rungs: the bare GET or POST plus the Redis scripts (and PostgreSQL query) a scenario's design
 * needs, answering a body of the same shape. A scenario's ceiling on this machine: the gap to it is
 * what the API's own layers cost, the gap below it what Redis and PostgreSQL do.
 */
export const BARE_REPORT_LABEL = 'rung: bare POST + report script';
export const BARE_RANK_LABEL = 'rung: bare GET + rank read script + name query';
export const BARE_PAGE_LABEL = 'rung: bare GET + page script + names query';
export const BARE_AROUND_LABEL = 'rung: bare GET + around script + names query';
export const BARE_BATCH_LABEL = 'rung: bare POST + player query + 5 report scripts';

/**
 * The scenarios every API run drives, in order; report_score first so its worker figures are clean,
 * then its variants, each on a board holding every player as the main board does (the Idempotency-Key
 * one on the main board itself: only the header differs).
 */
export const SERVICE_SCENARIOS: Scenario[] = [
  { label: REPORT_LABEL, kind: 'report', method: 'POST', board: BOARDS.main, rung: BARE_REPORT_LABEL },
  { label: `${REPORT_LABEL}, latest board`, kind: 'report-latest', method: 'POST', board: BOARDS.latest, variant: true },
  { label: `${REPORT_LABEL}, sum board`, kind: 'report-sum', method: 'POST', board: BOARDS.sum, variant: true },
  {
    label: `${REPORT_LABEL}, ${METADATA_BYTES} B metadata`,
    kind: 'report-metadata',
    method: 'POST',
    board: BOARDS.metadata,
    variant: true,
  },
  { label: `${REPORT_LABEL}, Idempotency-Key`, kind: 'report-keyed', method: 'POST', board: BOARDS.main, variant: true },
  { label: `${REPORT_LABEL}, window board`, kind: 'report-window', method: 'POST', board: BOARDS.windowed, variant: true },
  {
    label: `${REPORT_LABEL}, entries board`,
    kind: 'report-entries',
    method: 'POST',
    board: BOARDS.entries,
    variant: true,
  },
  { label: 'server report_scores (5 boards)', kind: 'server-batch', method: 'POST', board: '', rung: BARE_BATCH_LABEL },
  { label: 'player record read', kind: 'record', method: 'GET', board: BOARDS.main, rung: BARE_RANK_LABEL },
  { label: 'third-party page of 100', kind: 'third-party-page', method: 'GET', board: BOARDS.main, rung: BARE_PAGE_LABEL },
  { label: 'around_me', kind: 'around-me', method: 'GET', board: BOARDS.main, rung: BARE_AROUND_LABEL },
  { label: 'web page', kind: 'page', method: 'GET', board: BOARDS.main },
  { label: 'avatar', kind: 'avatar', method: 'GET', board: BOARDS.main },
];

/** Kinds of the report_score variants, to select or leave out together. */
export const VARIANT_KINDS: string[] = SERVICE_SCENARIOS.filter((s) => s.variant).map((s) => s.kind);

/**
 * The service scenarios a phase with `processes` API processes drives: those --only names (`only`),
 * else all, the variants only where `variants` says they run by default. Variants need 1 API process.
 */
export function selectScenarios(only: string[], processes: number, variants: boolean): Scenario[] {
  return SERVICE_SCENARIOS.filter(
    (s) => (!s.variant || processes === 1) && (only.length > 0 ? only.includes(s.kind) : variants || !s.variant),
  );
}

/**
 * Scenarios of their own, run only when --only names them (each takes minutes): `seasons` resets a
 * 1,000,000-entry board and measures the reset, its archive and the archived season's reads;
 * `moderation` bans on big boards; `ties` reports on tie-breaking boards and ranks lists of players;
 * `events` reports on a board whose reports give player.overtaken to three webhooks, and their deliveries;
 * `review` reports on a board judging review rules.
 */
export const OPTIONAL_SCENARIOS = ['seasons', 'moderation', 'ties', 'league', 'events', 'history', 'review'] as const;
export type OptionalScenario = (typeof OPTIONAL_SCENARIOS)[number];

export const BARE_SCENARIOS: Scenario[] = [
  { label: BARE_GET_LABEL, kind: 'bare-get', method: 'GET', board: '' },
  { label: BARE_POST_LABEL, kind: 'bare-post', method: 'POST', board: '' },
  { label: BARE_RANK_LABEL, kind: 'bare-rank', method: 'GET', board: BOARDS.main },
  { label: BARE_REPORT_LABEL, kind: 'bare-report', method: 'POST', board: BOARDS.main },
  { label: BARE_PAGE_LABEL, kind: 'bare-page', method: 'GET', board: BOARDS.main },
  { label: BARE_AROUND_LABEL, kind: 'bare-around', method: 'GET', board: BOARDS.main },
  { label: BARE_BATCH_LABEL, kind: 'bare-batch', method: 'POST', board: '' },
];

/** Each service scenario's rung, by the scenario's label. */
export const RUNGS: Readonly<Record<string, string>> = Object.fromEntries(
  SERVICE_SCENARIOS.flatMap((s) => (s.rung ? [[s.label, s.rung]] : [])),
);

const TOKEN_POOL = 100_000;
const json = { 'content-type': 'application/json' };

/**
 * Returns a function making one random request of the scenario. Tokens are minted up front for a
 * random sample of players, so the load loop spends nothing on HMACs.
 */
export function requestMaker(scenario: Scenario, ctx: ScenarioContext): () => BuiltRequest {
  const range = scenario.players ?? ctx.players;
  const named = encodeURIComponent(scenario.board);
  const spread = scenario.boards;
  const board = spread ? () => `${named}-${randomBelow(spread)}` : () => named;
  const player = () => playerId(randomBelow(range));
  const score = () => randomBelow(REPORTED_SCORE_CEILING);
  const season = scenario.season === undefined ? '' : `season=${scenario.season}`;
  const tokens = needsTokens(scenario.kind) ? mintTokens(ctx, range) : [];
  const token = () => tokens[randomBelow(tokens.length)]!;
  const client = () => ({ 'publishable-key': ctx.publishableKey, 'anonymous-authorization': token() });

  switch (scenario.kind) {
    case 'bare-get':
      return () => ({ method: 'GET', path: '/bare', headers: {} });
    case 'bare-post':
      return () => ({ method: 'POST', path: '/bare', headers: json, body: JSON.stringify({ score: score() }) });
    case 'bare-rank':
      return () => ({ method: 'GET', path: `/bare/rank/${player()}`, headers: {} });
    case 'bare-report':
      return () => ({ method: 'POST', path: '/bare/report', headers: json, body: JSON.stringify({ player_id: player(), score: score() }) });
    case 'bare-page':
      return () => ({ method: 'GET', path: `/bare/page?offset=${randomBelow(Math.max(1, range - 100))}`, headers: {} });
    case 'bare-around':
      return () => ({ method: 'GET', path: `/bare/around/${player()}`, headers: {} });
    case 'bare-batch':
      return () => ({
        method: 'POST',
        path: '/bare/batch',
        headers: json,
        body: JSON.stringify({ player_id: player(), scores: BOARDS.server.map(score), leaderboard_ids: BOARDS.server }),
      });
    case 'report':
    case 'report-latest':
    case 'report-sum':
    case 'report-window':
    case 'report-entries':
    case 'report-earliest':
      return () => ({
        method: 'POST',
        path: `/api/v1/client/leaderboards/${board()}/report_score`,
        headers: { ...json, ...client() },
        body: JSON.stringify({ score: score() }),
      });
    case 'report-metadata': {
      // Serialized up front, as the scores' JSON costs the driver next to nothing either.
      const metadata = Array.from({ length: 1000 }, (_, i) => JSON.stringify(metadataOf(randomBelow(1e10) + i)));
      return () => ({
        method: 'POST',
        path: `/api/v1/client/leaderboards/${board()}/report_score`,
        headers: { ...json, ...client() },
        body: `{"score":${score()},"metadata":${metadata[randomBelow(metadata.length)]!}}`,
      });
    }
    case 'report-keyed':
      // A fresh key per request: the first-time cost, which stores the record a retry would be answered from.
      return () => ({
        method: 'POST',
        path: `/api/v1/client/leaderboards/${board()}/report_score`,
        headers: { ...json, ...client(), 'idempotency-key': randomUUID() },
        body: JSON.stringify({ score: score() }),
      });
    case 'report-tiebreakers': {
      const tiebreaker = () => randomBelow(1000);
      return () => ({
        method: 'POST',
        path: `/api/v1/client/leaderboards/${board()}/report_score`,
        headers: { ...json, ...client() },
        body: JSON.stringify({ score: score(), tiebreakers: [tiebreaker(), tiebreaker(), tiebreaker(), tiebreaker()] }),
      });
    }
    case 'server-batch':
      return () => ({
        method: 'POST',
        path: '/api/v1/server/report_scores',
        headers: { ...json, 'secret-key': ctx.secretKey },
        body: JSON.stringify({ player_id: player(), scores: BOARDS.server.map(score), leaderboard_ids: BOARDS.server }),
      });
    case 'record':
      return () => ({
        method: 'GET',
        path: `/api/v1/client/leaderboards/${board()}/players/${player()}${season && `?${season}`}`,
        headers: { 'secret-key': ctx.secretKey },
      });
    case 'third-party-page':
      return () => ({
        method: 'GET',
        path: `/api/v1/third_party/leaderboards/${board()}?limit=100&offset=${randomBelow(Math.max(1, range - 100))}${season && `&${season}`}`,
        headers: { 'api-key': ctx.apiKey ?? 'missing' },
      });
    case 'list-ranks':
      // 100 distinct players of the board, as a bot asking for a server's members would.
      return () => {
        const listed = new Set<string>();
        while (listed.size < Math.min(100, range)) listed.add(player());
        return {
          method: 'GET',
          path: `/api/v1/third_party/leaderboards/${board()}/ranks?player_ids=${[...listed].join(',')}`,
          headers: { 'api-key': ctx.apiKey ?? 'missing' },
        };
      };
    case 'around-me':
      return () => ({ method: 'GET', path: `/api/v1/client/leaderboards/${board()}/around_me`, headers: client() });
    case 'page':
      return () => ({ method: 'GET', path: `/leaderboards/${board()}?token=${encodeURIComponent(token())}`, headers: {} });
    case 'avatar':
      return () => ({ method: 'GET', path: `/api/v1/users/${player()}/avatar.png`, headers: {} });
    case 'readyz':
      return () => ({ method: 'GET', path: '/readyz', headers: {} });
  }
}

function needsTokens(kind: ScenarioKind): boolean {
  return kind === 'report' || kind.startsWith('report-') || kind === 'around-me' || kind === 'page';
}

function mintTokens(ctx: ScenarioContext, range: number): string[] {
  const codec = new TokenCodec(ctx.tokenSecret);
  const count = Math.min(range, TOKEN_POOL);
  const tokens = new Array<string>(count);
  for (let i = 0; i < count; i += 1) {
    // A spread of players over the whole range (all of them when the range is small).
    const index = count === range ? i : randomBelow(range);
    tokens[i] = codec.issue(playerId(index), ctx.gameId);
  }
  return tokens;
}
