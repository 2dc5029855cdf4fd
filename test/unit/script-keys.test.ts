import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import {
  boardRetryKey,
  dropIdlePendingKeys,
  endedSeasonKeys,
  leaderboardKeys,
  markPendingKeys,
  pendingCountKeys,
  markPreparedKeys,
  memberKey,
  mergeScoresKeys,
  moderateEntryKeys,
  markModeratedKeys,
  pendingIndexKey,
  persistAckKeys,
  persistClaimKeys,
  readAroundKeys,
  readRangeKeys,
  readSeasonsKeys,
  readBestRankKeys,
  rebuildCursorKey,
  reconcileClanKeys,
  reportScoreKeys,
  heldViewKeys,
  restoreHeldKeys,
  requestRebuildKeys,
  resetSeasonKeys,
  scheduleResetsKeys,
  scanHiddenKeys,
  scoresOfKeys,
  setClansKeys,
  setLayoutKeys,
  reserveReportsKeys,
  releaseReportsKeys,
  seatOfKeys,
  enterSeasonKeys,
  restoreSeatsKeys,
  readGroupKeys,
  listGroupsKeys,
  endedGroupKeys,
  applyGroupMovesKeys,
} from '../../engine/live/keys.js';
import { luaDir } from '../../engine/paths.js';

const PREFIX = 'unit';
const BOARD = 7;
const PLAYER = 'player-1';
const SEASON = 3;
const DIGEST = 'digest';
const PLAYERS = ['a', 'b', 'c'];

/** Every call of a script's key function this test checks against the script's header. */
const CALLS: Record<string, { keys: () => string[]; players?: string[] }[]> = {
  reportScore: [{ keys: () => reportScoreKeys(PREFIX, BOARD, PLAYER, DIGEST) }],
  moderateEntry: [{ keys: () => moderateEntryKeys(PREFIX, BOARD, PLAYER) }],
  markModerated: [{ keys: () => markModeratedKeys(PREFIX, BOARD, SEASON) }],
  mergeScores: [{ keys: () => mergeScoresKeys(PREFIX, BOARD, PLAYERS), players: PLAYERS }],
  setClans: [{ keys: () => setClansKeys(PREFIX, BOARD, PLAYERS), players: PLAYERS }],
  reconcileClan: [{ keys: () => reconcileClanKeys(PREFIX, BOARD, PLAYERS), players: PLAYERS }],
  readRange: [
    { keys: () => readRangeKeys(PREFIX, BOARD, 'players', SEASON) },
    { keys: () => readRangeKeys(PREFIX, BOARD, 'clans', SEASON) },
  ],
  readAround: [{ keys: () => readAroundKeys(PREFIX, BOARD, SEASON) }],
  scoresOf: [
    { keys: () => scoresOfKeys(PREFIX, BOARD, 'players', SEASON) },
    { keys: () => scoresOfKeys(PREFIX, BOARD, 'clans', SEASON) },
    // The hidden scores are the current season's: their ended keys are named for no season.
    { keys: () => scoresOfKeys(PREFIX, BOARD, 'hidden', undefined) },
  ],
  readSeasons: [{ keys: () => readSeasonsKeys(PREFIX, BOARD) }],
  readBestRank: [{ keys: () => readBestRankKeys(PREFIX, BOARD) }],
  markPrepared: [{ keys: () => markPreparedKeys(PREFIX, BOARD) }],
  scheduleResets: [{ keys: () => scheduleResetsKeys(PREFIX, BOARD) }],
  resetSeason: [{ keys: () => resetSeasonKeys(PREFIX, BOARD, SEASON) }],
  persistClaim: [{ keys: () => persistClaimKeys(PREFIX, BOARD) }],
  persistAck: [{ keys: () => persistAckKeys(PREFIX, BOARD) }],
  markPending: [{ keys: () => markPendingKeys(PREFIX) }],
  pendingCount: [{ keys: () => pendingCountKeys(PREFIX, BOARD) }],
  dropIdlePending: [{ keys: () => dropIdlePendingKeys(PREFIX) }],
  requestRebuild: [{ keys: () => requestRebuildKeys(PREFIX) }],
  setLayout: [{ keys: () => setLayoutKeys(PREFIX, BOARD) }],
  scanHidden: [{ keys: () => scanHiddenKeys(PREFIX, BOARD, SEASON) }],
  reserveReports: [{ keys: () => reserveReportsKeys(PREFIX, BOARD) }],
  releaseReports: [{ keys: () => releaseReportsKeys(PREFIX, BOARD) }],
  seatOf: [{ keys: () => seatOfKeys(PREFIX, BOARD) }],
  enterSeason: [{ keys: () => enterSeasonKeys(PREFIX, BOARD) }],
  restoreSeats: [{ keys: () => restoreSeatsKeys(PREFIX, BOARD) }],
  heldView: [{ keys: () => heldViewKeys(PREFIX, BOARD) }],
  restoreHeld: [{ keys: () => restoreHeldKeys(PREFIX, BOARD) }],
  readGroup: [{ keys: () => readGroupKeys(PREFIX, BOARD) }],
  listGroups: [{ keys: () => listGroupsKeys(PREFIX, BOARD) }],
  endedGroup: [{ keys: () => endedGroupKeys(PREFIX, BOARD, SEASON) }],
  applyGroupMoves: [{ keys: () => applyGroupMovesKeys(PREFIX, BOARD, SEASON) }],
};
/** Scripts that change whatever key their caller names: no key function. */
const GENERIC = new Set(['compareAndSet']);

/** The header's name of a key the key builder made (as the Lua headers name them). */
function nameOf(key: string, players: string[] = [PLAYER]): string {
  for (const season of [SEASON, 0]) {
    for (const [name, value] of Object.entries(endedSeasonKeys(PREFIX, BOARD, season))) {
      if (value === key) return `ended${name[0]!.toUpperCase()}${name.slice(1)}`;
    }
  }
  for (const [name, value] of Object.entries(leaderboardKeys(PREFIX, BOARD))) if (value === key) return name;
  if (players.some((player) => memberKey(PREFIX, BOARD, player) === key)) return 'member';
  if (key === boardRetryKey(PREFIX, BOARD, DIGEST)) return 'retryRecord';
  if (key === pendingIndexKey(PREFIX)) return 'pendingIndex';
  if (key === rebuildCursorKey(PREFIX)) return 'rebuildCursor';
  return `an unknown key (${key})`;
}

/** Splits a KEYS list at the commas outside parentheses. */
function items(text: string): string[] {
  const found: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) {
      found.push(current.trim());
      current = '';
    } else current += char;
  }
  found.push(current.trim());
  return found;
}

const include = (name: string) => readFileSync(path.join(luaDir, 'includes', `${name}.lua`), 'utf8');

/** What a range item (1-9 boardKeys, 1-9 seasonEntries) stands for: each key's names, from its include. */
function expandRange(name: string): string[][] {
  if (name === 'boardKeys') {
    // includes/clan-totals.lua: local function boardKeys() return { scores = KEYS[1], ... } end
    const body = /local function boardKeys\(\)([\s\S]*?)\nend/.exec(include('clan-totals'))![1]!;
    return [...body.matchAll(/(\w+) = KEYS\[(\d+)\]/g)].sort((a, b) => Number(a[2]) - Number(b[2])).map((m) => [m[1]!]);
  }
  if (name === 'seasonEntries') {
    // includes/season-ranking.lua: a "-- KEYS:" comment, continued on lines indented past it.
    const comment = /^-- KEYS:([^\n]*(?:\n--\s{6,}[^\n]*)*)/m.exec(include('season-ranking'))![1]!;
    return parseList(comment.replace(/\n--/g, ' ')).fixed;
  }
  throw new Error(`no include defines the key range '${name}'`);
}

/** A KEYS list: the names allowed at each position ('a|b': either), then the name repeated after `then`. */
function parseList(text: string): { fixed: string[][]; then: string | undefined } {
  const fixed: string[][] = [];
  let then: string | undefined;
  for (const item of items(text.replace(/\s+/g, ' ').trim())) {
    const rest = /^then (\w+)/.exec(item);
    if (rest) {
      then = rest[1];
      continue;
    }
    const match = /^(\d+)(?:-(\d+))? ([A-Za-z|]+)/.exec(item);
    if (!match) throw new Error(`a KEYS item must read '<n> <name>', '<n>-<m> <range>' or 'then <name>': '${item}'`);
    const [, from, to, name] = match;
    expect(Number(from), `the numbering at '${item}'`).to.equal(fixed.length + 1);
    if (to === undefined) fixed.push(name!.split('|'));
    else {
      const expanded = expandRange(name!);
      expect(expanded, `the range '${item}'`).to.have.length(Number(to) - Number(from) + 1);
      fixed.push(...expanded);
    }
  }
  return { fixed, then };
}

/** The KEYS list of a script's header comment (up to its ARGV or a blank line). */
function headerKeys(file: string): { fixed: string[][]; then: string | undefined } {
  const source = readFileSync(path.join(luaDir, file), 'utf8');
  const header = /^--\[\[([\s\S]*?)\]\]/.exec(source)![1]!;
  const list = /KEYS:([\s\S]*?)(?:\n\s*\n|\n\s*ARGV:)/.exec(header);
  if (!list) throw new Error(`${file} has no KEYS list in its header`);
  return parseList(list[1]!);
}

const scripts = readdirSync(luaDir)
  .filter((file) => file.endsWith('.lua'))
  .map((file) => {
    const [, command, count] = /^([A-Za-z]+)(?:-(\d+))?\.lua$/.exec(file)!;
    return { file, command: command!, count: count === undefined ? undefined : Number(count) };
  });

describe('unit: the key builder and the Lua script headers', () => {
  it('when the scripts folder is listed, then every script has a key function here or is generic', () => {
    expect(scripts.length).to.be.greaterThan(10);
    for (const { command } of scripts) expect(CALLS[command] !== undefined || GENERIC.has(command), command).to.equal(true);
    expect(Object.keys(CALLS).filter((command) => !scripts.some((s) => s.command === command))).to.deep.equal([]);
  });

  for (const { file, command, count } of scripts.filter((s) => !GENERIC.has(s.command))) {
    it(`when ${file}'s header is read, then its key function gives its keys in the header's order`, () => {
      const { fixed, then } = headerKeys(file);
      // <command>-<n>.lua takes n keys; <command>.lua takes its count first, with a list after `then`.
      if (count === undefined) expect(then, `${file}: a variable key list ends with 'then <name>'`).to.be.a('string');
      else {
        expect(then, file).to.equal(undefined);
        expect(fixed, `${file}: the key count in its name`).to.have.length(count);
      }
      for (const { keys, players } of CALLS[command]!) {
        const built = keys();
        const names = built.map((key) => nameOf(key, players));
        expect(names.length, `${file}: number of keys`).to.equal(fixed.length + (players?.length ?? 0));
        fixed.forEach((allowed, i) => expect(allowed, `${file}: key ${i + 1} is ${names[i]}`).to.include(names[i]));
        if (players) {
          // The member keys follow the players' order (ARGV lists the players in the same order).
          expect(built.slice(fixed.length)).to.deep.equal(players.map((player) => memberKey(PREFIX, BOARD, player)));
          expect(names.slice(fixed.length).every((name) => name === then)).to.equal(true);
        }
      }
    });
  }
});
