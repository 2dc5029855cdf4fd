import { expect } from 'chai';
import { api } from '../helpers/context.js';
import { counting, playersNotCachedHere } from '../helpers/cost.js';
import {
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  internalBoard,
  secretKey,
  sendBatch,
  sendReport,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { inParallel, waitForPersistence } from '../helpers/persistence.js';
import { startWorker } from '../helpers/processes.js';
import { playerIdsQuery, type ShownEntry } from '../helpers/ties.js';

/**
 * The ranks of a list of players (README, "Ranks of a list of players"): on the client, server and
 * third-party paths, by player id or by alias, in the board's order with each entry's rank on the
 * board and its list_rank among the entries found; every id that holds no entry in not_found,
 * whatever the reason; the limits of the request; and its cost (one Redis round trip for the scores
 * and ranks, at most one PostgreSQL query for the names).
 */

type Scope = 'client' | 'server' | 'third_party';
type Headers = Record<string, string>;

const asClient = (game: TestGame, player: TestPlayer): Headers => ({
  'Publishable-Key': game.publishableKey,
  'Anonymous-Authorization': player.token,
});

/** GET …/leaderboards/:id/ranks?<query> on one path, with its credentials. */
function ranks(scope: Scope, credentials: Headers, leaderboardId: string, query: string) {
  return api()
    .get(`/api/v1/${scope}/leaderboards/${leaderboardId}/ranks${query ? `?${query}` : ''}`)
    .set(credentials);
}

/** The whole board as a third party lists it: what list ranks' entries are compared with. */
async function wholeBoard(bot: Headers, leaderboardId: string, season?: number): Promise<(ShownEntry & Record<string, unknown>)[]> {
  const res = await api()
    .get(`/api/v1/third_party/leaderboards/${leaderboardId}?limit=1000${season === undefined ? '' : `&season=${season}`}`)
    .set(bot)
    .expect(200);
  return res.body.entries;
}

/** Each listed entry of these players with its expected list_rank: entries of the board as listed, in its order. */
function expectedEntries(board: (ShownEntry & Record<string, unknown>)[], listRanks: Record<string, number>) {
  return board.filter((entry) => entry.player_id in listRanks).map((entry) => ({ ...entry, list_rank: listRanks[entry.player_id] }));
}

const bots = async (game: TestGame) => ({ 'Api-Key': (await createThirdPartyKey(game)).apiKey });

/** Scores players one after another (earliest boards then order equal entries as reported). */
async function scoreInTurn(game: TestGame, leaderboardId: string, scores: [TestPlayer, Record<string, unknown>][]): Promise<void> {
  for (const [player, body] of scores) {
    await sendReport(game, player, leaderboardId, body).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** An id no player of any game has (the service's ids are at most 16 characters of this alphabet). */
const UNKNOWN = 'Zz9_unknown-0001';

describe('list ranks', function () {
  this.timeout(120_000);

  it('when a server asks for players on a shared board, then entries come in board order with rank and list_rank, tied entries sharing their list_rank', async () => {
    const game = await createGame();
    const id = await createLeaderboard(game, { tiebreakers: [{ name: 'kills', sort_order: 'desc' }] });
    const [a, b, c, d, e, f] = await signupMany(game, 6);
    await scoreInTurn(game, id, [
      [a!, { score: 10, tiebreakers: [1] }],
      [b!, { score: 10, tiebreakers: [1] }],
      [c!, { score: 10, tiebreakers: [2] }],
      [d!, { score: 8, tiebreakers: [0] }],
      [e!, { score: 12, tiebreakers: [0] }],
      [f!, { score: 5, tiebreakers: [0] }],
    ]);
    const board = await wholeBoard(await bots(game), id);
    expect(board.map((entry) => entry.rank)).to.deep.equal([1, 2, 3, 3, 5, 6]);

    const res = await ranks('server', secretKey(game), id, playerIdsQuery([d!, a!, f!, b!].map((p) => p.playerId))).expect(200);
    expect(res.body).to.deep.equal({
      leaderboard_id: id,
      season: 1,
      total: 6,
      entries: expectedEntries(board, { [a!.playerId]: 1, [b!.playerId]: 1, [d!.playerId]: 3, [f!.playerId]: 4 }),
      not_found: [],
    });
    for (const entry of res.body.entries) {
      expect(Object.keys(entry).sort()).to.deep.equal(
        [
          'player_id',
          'display_name',
          'avatar_url',
          'clan_id',
          'score',
          'rank',
          'metadata',
          'tiebreakers',
          'list_rank',
          'rank_change',
        ].sort(),
      );
    }
  });

  it('when a server asks for players on an earliest board, then list_rank counts 1..n in board order, equal entries included', async () => {
    const game = await createGame();
    const id = await createLeaderboard(game, { tie_break: 'earliest' });
    const [a, b, c, d] = await signupMany(game, 4);
    await scoreInTurn(game, id, [
      [a!, { score: 10 }],
      [b!, { score: 10 }],
      [c!, { score: 10 }],
      [d!, { score: 20 }],
    ]);
    const board = await wholeBoard(await bots(game), id);
    expect(board.map((entry) => [entry.player_id, entry.rank])).to.deep.equal([
      [d!.playerId, 1],
      [a!.playerId, 2],
      [b!.playerId, 3],
      [c!.playerId, 4],
    ]);
    const res = await ranks('server', secretKey(game), id, playerIdsQuery([c!.playerId, a!.playerId, b!.playerId])).expect(200);
    expect(res.body.entries).to.deep.equal(expectedEntries(board, { [a!.playerId]: 1, [b!.playerId]: 2, [c!.playerId]: 3 }));
    for (const entry of res.body.entries) expect(entry.achieved_at).to.be.a('string');
  });

  it('when the ids include unknown, unscored, banned and erased players, then all of them are in not_found as asked, and nothing else tells them apart', async () => {
    const game = await createGame();
    const id = await createLeaderboard(game, { tie_break: 'earliest' });
    const [scored, unscored, banned, erased, other] = await signupMany(game, 5);
    await scoreInTurn(game, id, [
      [scored!, { score: 30 }],
      [banned!, { score: 20 }],
      [erased!, { score: 10 }],
      [other!, { score: 5 }],
    ]);
    await api().post(`/api/v1/server/players/${banned!.playerId}/ban`).set(secretKey(game)).send({}).expect(200);
    await api().delete(`/api/v1/server/players/${erased!.playerId}`).set(secretKey(game)).expect(204);
    const bot = await bots(game);
    const board = await wholeBoard(bot, id);
    expect(board.map((entry) => entry.player_id)).to.deep.equal([scored!.playerId, other!.playerId]);

    const missing = [UNKNOWN, unscored!.playerId, banned!.playerId, erased!.playerId, 'no such player'];
    for (const [scope, credentials] of [
      ['server', secretKey(game)],
      ['third_party', bot],
    ] as [Scope, Headers][]) {
      const all = await ranks(scope, credentials, id, playerIdsQuery([missing[0]!, other!.playerId, ...missing.slice(1)])).expect(200);
      expect(all.body, scope).to.deep.equal({
        leaderboard_id: id,
        season: 1,
        total: 2,
        entries: expectedEntries(board, { [other!.playerId]: 1 }),
        not_found: missing,
      });
      // One missing id at a time: the answers differ in that id only.
      const answers = [];
      for (const missingId of missing) {
        const one = await ranks(scope, credentials, id, playerIdsQuery([scored!.playerId, missingId])).expect(200);
        answers.push({
          ...one.body,
          not_found: one.body.not_found.map((found: string) => (found === missingId ? 'the missing id' : found)),
        });
      }
      for (const answer of answers) expect(answer, scope).to.deep.equal(answers[0]);
      expect(answers[0].not_found).to.deep.equal(['the missing id']);
    }
  });

  it('when a third party asks by alias, then entries are the aliased players in board order and not_found lists, as asked, the aliases that hold no entry', async () => {
    const game = await createGame();
    const id = await createLeaderboard(game, { tiebreakers: [{ name: 'wins', sort_order: 'desc' }] });
    const [a, b, unscored] = await signupMany(game, 3);
    await scoreInTurn(game, id, [
      [a!, { score: 5, tiebreakers: [1] }],
      [b!, { score: 9, tiebreakers: [0] }],
    ]);
    for (const [player, alias] of [
      [a!, 'Steam-A'],
      [b!, 'steam-b'],
      [unscored!, 'steam-u'],
    ] as [TestPlayer, string][]) {
      await api()
        .patch(`/api/v1/server/players/${player.playerId}`)
        .set(secretKey(game))
        .send({ aliases: { steam: alias, discord: `d-${alias}` } })
        .expect(200);
    }
    const bot = await bots(game);
    const board = await wholeBoard(bot, id);
    const asked = ['Steam-A', 'nobody-holds-this', 'steam-u', 'steam-b', 'd-steam-b'];
    const res = await ranks(
      'third_party',
      bot,
      id,
      `alias_type=steam&${asked.map((alias) => `alias_ids=${encodeURIComponent(alias)}`).join('&')}`,
    ).expect(200);
    expect(res.body).to.deep.equal({
      leaderboard_id: id,
      season: 1,
      total: 2,
      entries: expectedEntries(board, { [b!.playerId]: 1, [a!.playerId]: 2 }),
      not_found: ['nobody-holds-this', 'steam-u', 'd-steam-b'],
    });
    const byPlayerId = await ranks('third_party', bot, id, playerIdsQuery([a!.playerId, b!.playerId])).expect(200);
    expect(byPlayerId.body.entries).to.deep.equal(res.body.entries);
  });

  it('when an archived season is asked with season=N, then entries, ranks and total are the archive’s, and season says which season was read', async () => {
    const worker = await startWorker();
    try {
      const game = await createGame();
      const id = await createLeaderboard(game, { tie_break: 'earliest', tiebreakers: [{ name: 'time', sort_order: 'asc' }] });
      const [a, b, c] = await signupMany(game, 3);
      await scoreInTurn(game, id, [
        [a!, { score: 10, tiebreakers: [3] }],
        [b!, { score: 10, tiebreakers: [3] }],
        [c!, { score: 20, tiebreakers: [9] }],
      ]);
      const bot = await bots(game);
      const seasonOne = await wholeBoard(bot, id);
      await api().post(`/api/v1/server/leaderboards/${id}/reset`).set(secretKey(game)).expect(200);
      await waitForPersistence(await internalBoard(game, id));
      await sendReport(game, b!, id, { score: 1, tiebreakers: [0] }).expect(200);

      const query = playerIdsQuery([a!.playerId, b!.playerId, c!.playerId]);
      const archived = await ranks('server', secretKey(game), id, `${query}&season=1`).expect(200);
      expect(archived.body).to.deep.equal({
        leaderboard_id: id,
        season: 1,
        total: 3,
        entries: expectedEntries(seasonOne, { [c!.playerId]: 1, [a!.playerId]: 2, [b!.playerId]: 3 }),
        not_found: [],
      });
      const current = await ranks('third_party', bot, id, query).expect(200);
      expect(current.body).to.deep.include({ season: 2, total: 1, not_found: [a!.playerId, c!.playerId] });
      expect(current.body.entries.map((entry: ShownEntry) => [entry.player_id, entry.rank, entry.list_rank])).to.deep.equal([
        [b!.playerId, 1, 1],
      ]);
      const client = await ranks('client', asClient(game, a!), id, `${query}&season=1`).expect(200);
      expect(client.body).to.deep.equal(archived.body);

      const gone = await ranks('server', secretKey(game), id, `${query}&season=7`).expect(404);
      expect(gone.body.error.code).to.equal('season_not_found');
      for (const bad of ['0', '-1', 'one']) {
        const refused = await ranks('server', secretKey(game), id, `${query}&season=${bad}`).expect(400);
        expect(refused.body.error.code, bad).to.equal('validation_failed');
      }
    } finally {
      await worker.stop();
    }
  });

  it('when a client asks, then the caller is always in the answer, asked or not, in not_found while unscored, alone without player_ids; others are shown there though endpoint 4 refuses them', async () => {
    const game = await createGame();
    const id = await createLeaderboard(game, { tiebreakers: [{ name: 'kills', sort_order: 'asc' }] });
    const [me, rival, newcomer] = await signupMany(game, 3);
    await scoreInTurn(game, id, [
      [me!, { score: 7, tiebreakers: [2] }],
      [rival!, { score: 7, tiebreakers: [1] }],
    ]);
    const board = await wholeBoard(await bots(game), id);

    const notAsked = await ranks('client', asClient(game, me!), id, playerIdsQuery([rival!.playerId])).expect(200);
    expect(notAsked.body).to.deep.equal({
      leaderboard_id: id,
      season: 1,
      total: 2,
      entries: expectedEntries(board, { [rival!.playerId]: 1, [me!.playerId]: 2 }),
      not_found: [],
    });
    const asked = await ranks('client', asClient(game, me!), id, playerIdsQuery([me!.playerId, rival!.playerId])).expect(200);
    expect(asked.body).to.deep.equal(notAsked.body);
    const alone = await ranks('client', asClient(game, me!), id, '').expect(200);
    expect(alone.body).to.deep.equal({ ...notAsked.body, entries: expectedEntries(board, { [me!.playerId]: 1 }) });

    const unscored = await ranks('client', asClient(game, newcomer!), id, playerIdsQuery([rival!.playerId])).expect(200);
    expect(unscored.body).to.deep.include({ entries: expectedEntries(board, { [rival!.playerId]: 1 }), not_found: [newcomer!.playerId] });
    const nobody = await ranks('client', asClient(game, newcomer!), id, '').expect(200);
    expect(nobody.body).to.deep.equal({ leaderboard_id: id, season: 1, total: 2, entries: [], not_found: [newcomer!.playerId] });

    const theirs = await api().get(`/api/v1/client/leaderboards/${id}/players/${rival!.playerId}`).set(asClient(game, me!)).expect(403);
    expect(theirs.body.error.code).to.equal('forbidden');
  });

  it('when ids are asked more than once, then each is answered once, and 100 distinct ids sent with repeats are accepted', async () => {
    const game = await createGame();
    const id = await createLeaderboard(game);
    const [a, b] = await signupMany(game, 2);
    await scoreInTurn(game, id, [
      [a!, { score: 2 }],
      [b!, { score: 1 }],
    ]);
    const board = await wholeBoard(await bots(game), id);
    const twice = await ranks(
      'server',
      secretKey(game),
      id,
      playerIdsQuery([b!.playerId, UNKNOWN, a!.playerId, b!.playerId, UNKNOWN]),
    ).expect(200);
    expect(twice.body).to.deep.include({
      entries: expectedEntries(board, { [a!.playerId]: 1, [b!.playerId]: 2 }),
      not_found: [UNKNOWN],
    });

    const distinct = [a!.playerId, ...Array.from({ length: 99 }, (_, i) => `nobody-${i}`)];
    const repeated = await ranks('server', secretKey(game), id, playerIdsQuery([...distinct, ...distinct])).expect(200);
    expect(repeated.body.entries.map((entry: ShownEntry) => entry.player_id)).to.deep.equal([a!.playerId]);
    expect(repeated.body.not_found).to.deep.equal(distinct.slice(1));
  });

  it('when more than 100 distinct ids are asked, then 400 validation_failed on every path, the caller counting within the 100 on the client path', async () => {
    const game = await createGame();
    const id = await createLeaderboard(game);
    const [me] = await signupMany(game, 1);
    await sendReport(game, me!, id, { score: 1 }).expect(200);
    const bot = await bots(game);
    const others = (n: number) => Array.from({ length: n }, (_, i) => `other-${i}`);

    await ranks('server', secretKey(game), id, playerIdsQuery(others(100))).expect(200);
    await ranks('third_party', bot, id, playerIdsQuery(others(100))).expect(200);
    await ranks('client', asClient(game, me!), id, playerIdsQuery([me!.playerId, ...others(99)])).expect(200);
    await ranks('client', asClient(game, me!), id, playerIdsQuery(others(99))).expect(200);
    for (const [label, refused] of [
      ['server', ranks('server', secretKey(game), id, playerIdsQuery(others(101)))],
      ['third party', ranks('third_party', bot, id, playerIdsQuery(others(101)))],
      [
        'third party aliases',
        ranks(
          'third_party',
          bot,
          id,
          `alias_type=steam&${others(101)
            .map((o) => `alias_ids=${o}`)
            .join('&')}`,
        ),
      ],
      ['client, the caller not asked', ranks('client', asClient(game, me!), id, playerIdsQuery(others(100)))],
      ['client, the caller asked', ranks('client', asClient(game, me!), id, playerIdsQuery([me!.playerId, ...others(100)]))],
    ] as const) {
      const res = await refused.expect(400);
      expect(res.body.error.code, label).to.equal('validation_failed');
    }
  });

  it('when the ids are missing, empty, given both ways, aliases lack their type, or the query exceeds 8 KiB, then 400 validation_failed', async () => {
    const game = await createGame();
    const id = await createLeaderboard(game);
    const [me] = await signupMany(game, 1);
    await sendReport(game, me!, id, { score: 1 }).expect(200);
    const bot = await bots(game);
    const long = (n: number) => Array.from({ length: n }, (_, i) => `${i}-${'x'.repeat(120)}`);
    for (const [label, refused] of [
      ['server without player_ids', ranks('server', secretKey(game), id, '')],
      ['server with an empty player_ids', ranks('server', secretKey(game), id, 'player_ids=')],
      ['third party without ids', ranks('third_party', bot, id, '')],
      ['third party with an empty player_ids', ranks('third_party', bot, id, 'player_ids=')],
      ['player_ids and alias_ids together', ranks('third_party', bot, id, `player_ids=${me!.playerId}&alias_type=steam&alias_ids=s-1`)],
      ['alias_ids without alias_type', ranks('third_party', bot, id, 'alias_ids=s-1')],
      ['alias_type without alias_ids', ranks('third_party', bot, id, 'alias_type=steam')],
      ['a malformed alias_type', ranks('third_party', bot, id, 'alias_type=Steam!&alias_ids=s-1')],
      ['a server query over 8 KiB', ranks('server', secretKey(game), id, playerIdsQuery(long(70)))],
      [
        'a third-party alias query over 8 KiB',
        ranks(
          'third_party',
          bot,
          id,
          `alias_type=steam&${long(70)
            .map((a) => `alias_ids=${a}`)
            .join('&')}`,
        ),
      ],
      ['a client query over 8 KiB', ranks('client', asClient(game, me!), id, playerIdsQuery(long(70)))],
    ] as const) {
      const res = await refused;
      expect([res.status, res.body.error?.code], label).to.deep.equal([400, 'validation_failed']);
    }
    const unknown = await ranks('server', secretKey(game), 'no-such-board', playerIdsQuery([me!.playerId])).expect(404);
    expect(unknown.body.error.code).to.equal('leaderboard_not_found');
  });

  describe('cost', () => {
    it('when 100 ids are asked on a board of about 1,000 entries, then the answer costs one Redis round trip for scores and ranks and at most one PostgreSQL query', async function () {
      this.timeout(300_000);
      const game = await createGame();
      const id = await createLeaderboard(game, { tie_break: 'earliest', tiebreakers: [{ name: 'kills', sort_order: 'desc' }] });
      const board = await internalBoard(game, id);
      const known = await signupMany(game, 900);
      await inParallel(
        known.map(
          (player, i) => () =>
            sendBatch(game, { player_id: player.playerId, scores: [i % 50], leaderboard_ids: [id], tiebreakers: [[i % 7]] }).expect(200),
        ),
        20,
      );
      // 100 players this process never read, so their names must come from PostgreSQL.
      const fresh = await playersNotCachedHere(game, id, 100, 'Fresh', (i) => ({ score: i % 50, tiebreakers: [i % 3] }));
      // Warm: the key, the board's settings and the script are known to this process before counting.
      await ranks('server', secretKey(game), id, playerIdsQuery(known.slice(0, 5).map((p) => p.playerId))).expect(200);

      const asked = fresh.map(({ player }) => player.playerId);
      const { result, commands, queries } = await counting(board, () =>
        ranks('server', secretKey(game), id, playerIdsQuery(asked)).expect(200),
      );
      expect(result.body.total).to.equal(1000);
      expect(result.body.entries).to.have.length(100);
      expect(result.body.not_found).to.deep.equal([]);
      const nameOf = new Map(fresh.map(({ player, name }) => [player.playerId, name]));
      for (const entry of result.body.entries) expect(entry.display_name).to.equal(nameOf.get(entry.player_id));
      const listRanks = result.body.entries.map((entry: ShownEntry) => entry.list_rank);
      expect(listRanks).to.deep.equal(Array.from({ length: 100 }, (_, i) => i + 1));
      expect(commands, 'Redis commands on the board').to.have.length(1);
      expect(queries, 'PostgreSQL queries').to.have.length.at.most(1);
    });
  });
});
