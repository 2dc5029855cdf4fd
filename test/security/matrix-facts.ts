import { expect } from 'chai';
import type { GameWorld } from './world.js';

/**
 * What a game's world holds, so that any answer about it can be checked field by field without a
 * word about the endpoint that gave it: an object in an answer is about the first id it carries
 * (a player before the clan, clan or key before the leaderboard, …), and each field it holds that
 * the world knows about that id (or about an id of an object around it) must agree.
 */
export interface Facts {
  /** Known fields by the id of the record they describe. */
  records: Map<string, Record<string, unknown>>;
  /** What a record's pages and lists hold, by the kind of id listed. */
  contents: Map<string, Record<string, string[]>>;
  /** The game, the container of an answer that carries no id of its own. */
  gameId: string;
  /** The caller's own player: who an answer naming no player (a signup, a rename, an alias) is about. */
  player: string;
  /** The player an anonymous token names: the one a page highlights. */
  viewer?: string;
}

const ID_KINDS = ['player_id', 'clan_id', 'key_id', 'webhook_id', 'group_id', 'leaderboard_id', 'game_id'] as const;

export function factsOf(w: GameWorld, viewer?: string): Facts {
  const [low, high] = w.scores;
  const total = { total: 2 };
  // The matrix reports the schema's example score, below every score a world holds.
  const reported = { improved: false };
  const records = new Map<string, Record<string, unknown>>([
    [w.player.playerId, { display_name: `${w.mark} one`, clan_id: w.clan, score: low, best_score: low, rank: 2, ...reported, ...total }],
    [w.other.playerId, { display_name: `${w.mark} two`, clan_id: null, score: high, best_score: high, rank: 1, ...reported, ...total }],
    // The clan's score is its one member's; one clan is ranked and it has one member.
    [w.clan, { name: `${w.mark} clan`, score: low, rank: 1, member_count: 1, total: 1 }],
    [w.board, { name: `${w.mark} board`, type: 'clan', ...total }],
    // Season 1's league moves put its winner a tier up: this season each player has a group of their own.
    // (`member_rank`: the rank its entries show, within the group.)
    ['1', { tier: 'bronze', total: 1, member_rank: 1 }],
    ['2', { tier: 'silver', total: 1, member_rank: 1 }],
    [w.keyId, { name: `${w.mark} key`, revoked_at: null }],
    [w.revokedKeyId, { name: `${w.mark} revoked` }],
    [w.webhookId, { url: w.webhookUrl, enabled: true }],
    [w.game.gameId, { name: `${w.mark} game`, publishable_key: w.game.publishableKey }],
  ]);
  const contents = new Map<string, Record<string, string[]>>([
    [w.board, { player_id: [w.other.playerId, w.player.playerId], clan_id: [w.clan] }],
    [w.clan, { player_id: [w.player.playerId] }],
    ['1', { player_id: [w.player.playerId] }],
    ['2', { player_id: [w.other.playerId] }],
    [w.game.gameId, { leaderboard_id: [w.board], key_id: [w.keyId, w.revokedKeyId], webhook_id: [w.webhookId], game_id: [w.game.gameId] }],
  ]);
  return { records, contents, gameId: w.game.gameId, player: w.player.playerId, ...(viewer ? { viewer } : {}) };
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const ownId = (object: Json): string | undefined => {
  const kind = ID_KINDS.find((name) => typeof object[name] === 'string');
  return kind && (object[kind] as string);
};

/**
 * Checks a successful JSON answer against the world it is about: the ids and values the request
 * sent come back as sent, every field the world knows agrees, lists and pages hold what the world
 * has, and a page highlights the token's player only.
 */
export function expectAbout(body: unknown, sent: Record<string, unknown>, facts: Facts, cell: string): void {
  if (!isObject(body)) return;
  for (const [name, value] of Object.entries(sent)) {
    if (name in body && (value === null || typeof value !== 'object')) expect(body[name], `${cell}: ${name}, as sent`).to.equal(value);
  }
  // An answer naming no player is about the caller's own (a signup's, a rename's, an alias read's).
  if ('player_id' in body && !('player_id' in sent)) expect(body.player_id, `${cell}: the caller's player`).to.equal(facts.player);
  walk(body, [], facts.gameId, facts, cell, new Set(Object.keys(sent)));
}

/**
 * `around`: the known records the objects around this one are about, nearest first (a batch's
 * results are its player's); `container`: what a list in it belongs to (at the top, the game).
 */
function walk(
  object: Json,
  around: string[],
  container: string,
  facts: Facts,
  cell: string,
  sentHere: Set<string>,
  unranked = false,
  group?: Json,
): void {
  const id = ownId(object);
  // A banned player's scores wait out of the ranking: no rank, whatever the world's was.
  const outOfRanking = unranked || object.banned === true;
  // An object about something the world does not hold (a record just created) is checked by nothing it holds.
  const about = id === undefined ? around : facts.records.has(id) ? [id, ...around] : [];
  // A paged list's `total` counts the list's items over every page (ranked players, seasons, …):
  // whole in view, it is the number shown.
  const list = Object.values(object).find(Array.isArray);
  const paged = list !== undefined && typeof object.limit === 'number' && typeof object.offset === 'number';
  if (paged && object.offset === 0 && list.length < (object.limit as number))
    expect(object.total, `${cell}: total of a list shown whole`).to.equal(list.length);
  for (const [field, value] of Object.entries(object)) {
    if (sentHere.has(field) || value === undefined || isObject(value) || Array.isArray(value)) continue;
    if (paged && field === 'total') continue;
    if (outOfRanking && field === 'rank') {
      expect(value, `${cell}: rank of a banned player's score`).to.equal(null);
      continue;
    }
    // A league group's entries rank within the group.
    if (group && field === 'rank') {
      expect(value, `${cell}: rank of ${String(id)} within its group`).to.equal(group.member_rank);
      continue;
    }
    // The nearest record the world knows this field of.
    const known = about.map((each) => facts.records.get(each)).find((record) => record && field in record);
    if (known) expect(value, `${cell}: ${field} of ${about[0]}`).to.deep.equal(known[field]);
  }
  if (facts.viewer && typeof object.is_viewer === 'boolean' && typeof object.player_id === 'string') {
    expect(object.is_viewer, `${cell}: ${object.player_id} highlighted`).to.equal(object.player_id === facts.viewer);
  }
  const inner = id ?? container;
  const groupHere = typeof object.group_id === 'string' && id === object.group_id ? facts.records.get(id) : undefined;
  for (const value of Object.values(object)) {
    if (isObject(value)) walk(value, about, inner, facts, cell, new Set(), outOfRanking, groupHere);
    if (!Array.isArray(value)) continue;
    const items = value.filter(isObject);
    items.forEach((item) => walk(item, about, inner, facts, cell, new Set(), outOfRanking, groupHere));
    expectListed(object, items, inner, facts, cell);
  }
}

/** A whole page or list of a record the world knows holds each id the world lists there (its total counts them). */
function expectListed(object: Json, items: Json[], container: string, facts: Facts, cell: string): void {
  const contents = facts.contents.get(container);
  const kind = ID_KINDS.find((name) => typeof items[0]?.[name] === 'string');
  const whole = typeof object.total !== 'number' || object.total === items.length;
  if (!contents || !kind || !contents[kind] || !whole) return;
  const ids = items.map((item) => item[kind]);
  expect(ids, `${cell}: the ${kind}s listed in ${container}`).to.include.members(contents[kind]);
}

/** Values of a game's world that an answer about another game must never hold: every name carries the mark. */
export function expectNothingOf(res: { text: string; body: unknown }, w: GameWorld, sentText: string, cell: string): void {
  expect(res.text, `${cell}: answers with the other game's names`).to.not.include(w.mark);
  const ids = [w.board, w.clan, w.player.playerId, w.other.playerId, w.keyId, w.revokedKeyId, w.webhookId, w.game.gameId];
  for (const id of ids.filter((each) => !sentText.includes(each)))
    expect(res.text, `${cell}: answers with the other game's ${id}`).to.not.include(id);
  const numbers: number[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'number') numbers.push(value);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect);
  };
  collect(res.body);
  for (const score of w.scores) expect(numbers, `${cell}: answers with the other game's score ${score}`).to.not.include(score);
}
