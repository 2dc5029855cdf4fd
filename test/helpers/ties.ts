import { expect } from 'chai';
import { api, testStores } from './context.js';
import { secretKey, type TestGame, type TestPlayer } from './fixtures.js';

/**
 * The test's own model of a leaderboard with tie-breaking (README, "Ties"): entries ordered by
 * score in the board's order, then each tiebreaker in its own direction, then on `earliest`
 * boards by the time each entry was reached; ranks shared by entries equal on score and every
 * tiebreaker (`shared`), or the position (`earliest`). The service breaks what is still equal after
 * that by a fixed order of its own, which the model does not know: the checks below accept any order
 * among such entries and compare the reads with one another to see that it is the same everywhere.
 */
export type Direction = 'desc' | 'asc';
export type TieBreak = 'shared' | 'earliest';
export type Rule = 'best' | 'latest' | 'sum';

export interface TieSettings {
  sortOrder: Direction;
  tieBreak: TieBreak;
  /** One direction per tiebreaker column, 0-4 of them. */
  columns: Direction[];
  rule: Rule;
}

/** The body of PUT /api/v1/server/leaderboards/:id for these settings; the columns are named col_0… */
export function settingsBody(settings: TieSettings, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sort_order: settings.sortOrder,
    tie_break: settings.tieBreak,
    update_strategy: settings.rule,
    tiebreakers: settings.columns.map((sort_order, i) => ({ name: `col_${i}`, sort_order })),
    ...extra,
  };
}

export interface TieEntry {
  score: number;
  tiebreakers: number[];
  /** ms since the epoch, as the report's answer gave it (earliest boards only). */
  achievedAt?: number;
}

/** The service treats -0 as 0 (they tie, and -0 may read back as 0); so does every comparison here. */
export const plainZero = (value: number): number => (value === 0 ? 0 : value);

/** ISO 8601 UTC with milliseconds, as the service writes every achieved_at. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** What a read shows of one entry (any of the shapes: record, list entry, member, list ranks). */
export interface ShownEntry {
  player_id: string;
  score: number | null;
  rank: number | null;
  tiebreakers?: number[];
  achieved_at?: string;
  list_rank?: number;
  clan_rank?: number | null;
  rank_change?: number | null;
}

function byDirection(a: number, b: number, direction: Direction): number {
  if (a === b) return 0; // -0 === 0
  return (direction === 'desc' ? a > b : a < b) ? -1 : 1;
}

export class TieModel {
  readonly entries = new Map<string, TieEntry>();

  constructor(readonly settings: TieSettings) {}

  get earliest(): boolean {
    return this.settings.tieBreak === 'earliest';
  }

  /** Negative when `a` goes ahead of `b` on score and tiebreakers; 0 when they are equal on all of them. */
  compareValues(a: TieEntry, b: TieEntry): number {
    const byScore = byDirection(a.score, b.score, this.settings.sortOrder);
    if (byScore !== 0) return byScore;
    for (const [i, direction] of this.settings.columns.entries()) {
      const byColumn = byDirection(a.tiebreakers[i]!, b.tiebreakers[i]!, direction);
      if (byColumn !== 0) return byColumn;
    }
    return 0;
  }

  /** compareValues, then (earliest) the earlier time first; 0 when only the fixed order can tell them apart. */
  compare(a: TieEntry, b: TieEntry): number {
    const byValues = this.compareValues(a, b);
    if (byValues !== 0 || !this.earliest) return byValues;
    return Math.sign(a.achievedAt! - b.achievedAt!);
  }

  /**
   * Applies a report by the board's rule. `replaced`: the kept entry (and so its time) is the
   * report's now; `improved`: what the answer must say, undefined where the rules leave it open (an
   * identical report on a `latest` earliest board, which moves only the time).
   */
  report(player: string, score: number, tiebreakers: number[]): { replaced: boolean; improved: boolean | undefined; kept: TieEntry } {
    const before = this.entries.get(player);
    const submitted: TieEntry = { score, tiebreakers };
    let replaced: boolean;
    let improved: boolean | undefined;
    if (this.settings.rule === 'best') {
      replaced = !before || this.compareValues(submitted, before) < 0;
      improved = replaced;
    } else if (this.settings.rule === 'latest') {
      replaced = true;
      const same = before !== undefined && this.compareValues(submitted, before) === 0;
      improved = !same ? true : this.earliest ? undefined : false;
    } else {
      submitted.score = (before?.score ?? 0) + score;
      replaced = !before || submitted.score !== before.score;
      improved = replaced;
    }
    if (replaced) this.entries.set(player, { ...submitted, achievedAt: before?.achievedAt });
    return { replaced, improved, kept: this.entries.get(player)! };
  }

  /** Records the time the service gave the player's kept entry. */
  setTime(player: string, achievedAt: number): void {
    this.entries.get(player)!.achievedAt = achievedAt;
  }

  remove(player: string): void {
    this.entries.delete(player);
  }

  /** A copy of the model without these players (what reads show once they are withdrawn). */
  without(players: Iterable<string>): TieModel {
    const gone = new Set(players);
    const copy = new TieModel(this.settings);
    for (const [player, entry] of this.entries) if (!gone.has(player)) copy.entries.set(player, { ...entry });
    return copy;
  }

  /**
   * The ranks the player's entry may hold: exactly one on `shared` boards (1 + the entries strictly
   * better on score and tiebreakers); on `earliest` boards the positions from 1 + the entries strictly
   * ahead to that plus the entries reached in the same millisecond with the same values.
   */
  rankRange(player: string): [number, number] {
    const mine = this.entries.get(player)!;
    let ahead = 0;
    let level = 0;
    for (const [other, entry] of this.entries) {
      if (other === player) continue;
      const order = this.compare(entry, mine);
      if (order < 0) ahead += 1;
      else if (order === 0) level += 1;
    }
    return this.earliest ? [ahead + 1, ahead + 1 + level] : [ahead + 1, ahead + 1];
  }

  /** Competition rank on score and tiebreakers (shared boards' rank, clan standings aside). */
  sharedRank(player: string, among: Iterable<string> = this.entries.keys()): number {
    const mine = this.entries.get(player)!;
    let better = 0;
    for (const other of among) if (other !== player && this.compareValues(this.entries.get(other)!, mine) < 0) better += 1;
    return better + 1;
  }

  /** Checks one shown entry's values (score, tiebreakers, achieved_at) against the model's, and that a board without them shows no such field. */
  expectValues(shown: ShownEntry, label: string): void {
    const entry = this.entries.get(shown.player_id);
    expect(entry, `${label}: ${shown.player_id} holds an entry in the model`).to.not.equal(undefined);
    expect(plainZero(shown.score!), `${label}: score`).to.equal(plainZero(entry!.score));
    if (this.settings.columns.length > 0) {
      expect(shown.tiebreakers?.map(plainZero), `${label}: tiebreakers`).to.deep.equal(entry!.tiebreakers.map(plainZero));
    } else {
      expect(shown, `${label}: no tiebreakers on a board without columns`).to.not.have.property('tiebreakers');
    }
    if (this.earliest) {
      expect(shown.achieved_at, `${label}: achieved_at`).to.match(ISO_MS);
      if (entry!.achievedAt !== undefined) expect(Date.parse(shown.achieved_at!), `${label}: achieved_at`).to.equal(entry!.achievedAt);
    } else {
      expect(shown, `${label}: no achieved_at on a shared board`).to.not.have.property('achieved_at');
    }
  }

  /**
   * Checks a list read from `offset` (a page, around_me, list ranks): every entry's values, the
   * model's order between neighbours, and the ranks (shared: the model's; earliest: the position).
   * `positions`: the entries' positions on the whole board when they are not consecutive.
   */
  expectList(shown: ShownEntry[], label: string, { offset = 0, positions }: { offset?: number; positions?: number[] } = {}): void {
    for (const [i, entry] of shown.entries()) {
      this.expectValues(entry, `${label} #${i}`);
      if (i > 0) {
        const order = this.compare(this.entries.get(shown[i - 1]!.player_id)!, this.entries.get(entry.player_id)!);
        expect(order, `${label}: #${i - 1} (${shown[i - 1]!.player_id}) goes ahead of or ties #${i} (${entry.player_id})`).to.be.at.most(0);
      }
      const [low, high] = this.rankRange(entry.player_id);
      expect(entry.rank, `${label} #${i} rank`).to.be.within(low, high);
      if (this.earliest) expect(entry.rank, `${label} #${i}: rank is the position`).to.equal((positions?.[i] ?? offset + i) + 1);
    }
  }

  /** The whole board, read in order: exactly the model's players, in the model's order, with its ranks. */
  expectBoard(shown: ShownEntry[], label: string): void {
    expect(shown.map((e) => e.player_id).sort(), `${label}: the players listed`).to.deep.equal([...this.entries.keys()].sort());
    this.expectList(shown, label);
  }

  /**
   * The list ranks the service must give the entries found for `asked`, in the board's order as
   * `board` (a whole-board read) shows it: shared → 1 + the found entries strictly better on score
   * and tiebreakers; earliest → the position among them.
   */
  listRanks(board: ShownEntry[], asked: Iterable<string>): { player_id: string; list_rank: number; rank: number }[] {
    const wanted = new Set(asked);
    const found = board.filter((e) => wanted.has(e.player_id));
    const ids = found.map((e) => e.player_id);
    return found.map((e, i) => ({
      player_id: e.player_id,
      list_rank: this.earliest ? i + 1 : this.sharedRank(e.player_id, ids),
      rank: e.rank!,
    }));
  }
}

/** The order in which a whole-board read lists these players (the service's fixed order included). */
export function inBoardOrder(board: ShownEntry[], players: Iterable<string>): string[] {
  const wanted = new Set(players);
  return board.map((e) => e.player_id).filter((id) => wanted.has(id));
}

/** The query string of a list-ranks request for these player ids. */
export function playerIdsQuery(ids: string[]): string {
  return `player_ids=${ids.map(encodeURIComponent).join(',')}`;
}

/** A board to read, with everyone who may hold an entry on it and the clans whose members to list. */
export interface ReadTarget {
  game: TestGame;
  bot: { 'Api-Key': string };
  leaderboardId: string;
  players: TestPlayer[];
  /** Each clan with its members' player ids (on clan boards). */
  clans?: { id: string; members: string[] }[];
}

const pick = (entry: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(keys.filter((key) => key in entry).map((key) => [key, entry[key]]));

/**
 * Every read of the board (the live season, or with `season` an archived one) against the model:
 * the whole board (endpoint 7), the same order in the client's pages of 2, each record (endpoints 4
 * and 8), around_me, list ranks of every other player and an unknown id, and the clans' member
 * lists (endpoint 10). Returns the whole board as listed.
 */
export async function expectEveryRead(target: ReadTarget, model: TieModel, label: string, season?: number): Promise<ShownEntry[]> {
  const { game, bot, leaderboardId: id, players } = target;
  // The season as the only parameter (only) or after others (q).
  const q = season === undefined ? '' : `&season=${season}`;
  const only = season === undefined ? '' : `?season=${season}`;
  const full = await api().get(`/api/v1/third_party/leaderboards/${id}?limit=1000${q}`).set(bot).expect(200);
  expect(full.body.total, `${label}: total`).to.equal(model.entries.size);
  const board: (ShownEntry & Record<string, unknown>)[] = full.body.entries;
  model.expectBoard(board, `${label}: page`);

  const paged = [];
  for (let offset = 0; offset < model.entries.size; offset += 2) {
    const res = await api()
      .get(`/api/v1/client/leaderboards/${id}?limit=2&offset=${offset}${q}`)
      .set('Publishable-Key', game.publishableKey)
      .set('Anonymous-Authorization', players[0]!.token)
      .expect(200);
    paged.push(...res.body.entries);
  }
  expect(paged, `${label}: pages of 2 list the board in the same order`).to.deep.equal(board);

  for (const player of players) {
    const who = `${label}: ${player.playerId}`;
    const at = board.findIndex((e) => e.player_id === player.playerId);
    const byAlias = await api().get(`/api/v1/third_party/leaderboards/${id}/player/${player.playerId}${only}`).set(bot);
    const record = await api().get(`/api/v1/client/leaderboards/${id}/players/${player.playerId}${only}`).set(secretKey(game));
    const own = await api()
      .get(`/api/v1/client/leaderboards/${id}/players/${player.playerId}${only}`)
      .set('Publishable-Key', game.publishableKey)
      .set('Anonymous-Authorization', player.token);
    const around = await api()
      .get(`/api/v1/client/leaderboards/${id}/around_me?range=1${q}`)
      .set('Publishable-Key', game.publishableKey)
      .set('Anonymous-Authorization', player.token);
    if (at === -1) {
      for (const res of [byAlias, record, own, around])
        expect([res.status, res.body.error?.code], `${who} has no entry`).to.deep.equal([404, 'record_not_found']);
      continue;
    }
    // A record of an ended season also says its reward: none, on a board without rewards. A record
    // is no list entry: it says no rank_change.
    const reward = season === undefined ? {} : { reward: null, reward_claimed_at: null };
    const { rank_change: _, ...entry } = board[at]!;
    // best_rank comes from the answers to the player's reports (test/worker/best-rank.test.ts checks
    // its value): here, that a live record has one and an archived one none.
    const { best_rank, best_rank_at, ...shown } = byAlias.body as { best_rank: number | null; best_rank_at: string | null };
    if (season === undefined) {
      expect(best_rank, `${who} best_rank`).to.be.a('number').and.at.least(1);
      expect(best_rank_at, `${who} best_rank_at`).to.match(ISO_MS);
    } else expect([best_rank, best_rank_at], `${who} best_rank of an archived season`).to.deep.equal([null, null]);
    expect([byAlias.status, shown], `${who} record`).to.deep.equal([
      200,
      { ...entry, leaderboard_id: id, total: model.entries.size, ...reward },
    ]);
    expect([record.status, record.body], `${who} record (endpoint 4, Secret-Key)`).to.deep.equal([200, byAlias.body]);
    expect([own.status, own.body], `${who} own record (endpoint 4, token)`).to.deep.equal([200, byAlias.body]);
    expect([around.status, around.body.entries], `${who} around_me`).to.deep.equal([200, board.slice(Math.max(0, at - 1), at + 2)]);
  }

  const asked = [...players.filter((_, p) => p % 2 === 0).map((player) => player.playerId), 'nobody-here'];
  const ranks = await api()
    .get(`/api/v1/server/leaderboards/${id}/ranks?${playerIdsQuery(asked)}${q}`)
    .set(secretKey(game))
    .expect(200);
  expect(ranks.body, `${label}: list ranks`).to.deep.equal({
    leaderboard_id: id,
    season: season ?? ranks.body.season,
    total: model.entries.size,
    entries: model
      .listRanks(board, asked)
      .map(({ player_id, list_rank }) => ({ ...board.find((e) => e.player_id === player_id)!, list_rank })),
    not_found: asked.filter((a) => !model.entries.has(a)),
  });
  expect(ranks.body.season, `${label}: list ranks' season`).to.be.a('number');

  for (const clan of target.clans ?? []) {
    const scored = board.filter((e) => clan.members.includes(e.player_id));
    const res = await api().get(`/api/v1/third_party/leaderboards/${id}/clans/${clan.id}/members?limit=100${q}`).set(bot);
    if (season !== undefined && scored.length === 0) {
      // A clan none of whose members scored that season is not in the season's archive.
      expect(res.status, `${label}: ${clan.id} members`).to.be.oneOf([200, 404]);
      if (res.status === 200) expect(res.body.entries, `${label}: ${clan.id} members`).to.deep.equal([]);
      continue;
    }
    expect(res.status, `${label}: ${clan.id} members`).to.equal(200);
    const ids = scored.map((e) => e.player_id);
    const keys = ['player_id', 'score', 'rank', 'tiebreakers', 'achieved_at'];
    expect(
      res.body.entries.slice(0, scored.length).map((e: Record<string, unknown>) => ({ ...pick(e, keys), clan_rank: e.clan_rank })),
      `${label}: ${clan.id} members with a score, best first, clan_rank by the board's tie rule`,
    ).to.deep.equal(scored.map((e, i) => ({ ...pick(e, keys), clan_rank: model.earliest ? i + 1 : model.sharedRank(e.player_id, ids) })));
    const unscored: ShownEntry[] = res.body.entries.slice(scored.length);
    if (season === undefined) {
      expect(unscored.map((e) => e.player_id).sort(), `${label}: ${clan.id} members without a score, last`).to.deep.equal(
        clan.members.filter((m) => !ids.includes(m)).sort(),
      );
      for (const e of unscored)
        expect([e.score, e.rank, e.clan_rank], `${label}: ${clan.id} unscored member`).to.deep.equal([null, null, null]);
    } else {
      expect(unscored, `${label}: ${clan.id}: an archive lists the members who scored`).to.deep.equal([]);
    }
  }
  return board;
}

interface Row {
  player_id: string;
  score: number;
  tiebreakers: number[] | null;
  achieved_at: Date | null;
}

/**
 * PostgreSQL's rows of the board (the live season's `scores`, or with `season` an archived season's
 * `season_entries`) against the model: score, tiebreakers (boards with columns) and achieved_at
 * (earliest boards), -0 read as 0.
 */
export async function expectRows(board: { internalId: number }, model: TieModel, label: string, season?: number): Promise<void> {
  const { rows } = await testStores().pool.query<Row>(
    season === undefined
      ? 'SELECT player_id, score, tiebreakers, achieved_at FROM scores WHERE leaderboard_internal_id = $1'
      : 'SELECT player_id, score, tiebreakers, achieved_at FROM season_entries WHERE leaderboard_internal_id = $1 AND season = $2 AND withdrawn IS NULL',
    season === undefined ? [board.internalId] : [board.internalId, season],
  );
  const columns = model.settings.columns.length > 0;
  const stored = (row: Row) => ({
    score: plainZero(row.score),
    ...(columns && { tiebreakers: row.tiebreakers?.map(plainZero) }),
    ...(model.earliest && { achievedAt: row.achieved_at?.getTime() }),
  });
  const modelled = (entry: TieEntry) => ({
    score: plainZero(entry.score),
    ...(columns && { tiebreakers: entry.tiebreakers.map(plainZero) }),
    ...(model.earliest && { achievedAt: entry.achievedAt }),
  });
  expect(Object.fromEntries(rows.map((row) => [row.player_id, stored(row)])), `${label}: PostgreSQL`).to.deep.equal(
    Object.fromEntries([...model.entries].map(([player, entry]) => [player, modelled(entry)])),
  );
}
