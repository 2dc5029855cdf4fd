import { expect } from 'chai';
import type { Pool } from '../../engine/db.js';
import { endedSeasonKeys } from '../../engine/live/keys.js';
import { SeasonArchiveStore } from '../../engine/seasons/season-archive-store.js';
import { PlayerStore } from '../../engine/players/player-store.js';
import { transactionsOn } from '../../engine/db.js';
import { api, testStores } from '../helpers/context.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  internalBoard,
  joinClan,
  reportScores,
  scoredPlayers,
  secretKey,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { waitForPersistence } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';
import { ReferenceBoard } from '../helpers/reference.js';

/**
 * Moderation of archived seasons (README, "Guarantees"): a ban hides a player's archived rows, an
 * unban shows them again, a removal withdraws one row, an erasure strips every row of the player;
 * reads skip withdrawn rows and show ranks and totals as if they had never been there, without
 * renumbering the stored rows. The changes go through SeasonArchiveStore (the moderation routes call it in their
 * transactions); the reads through the public API, compared with a model of the season.
 */
describe('archived seasons under moderation', () => {
  let game: TestGame;
  let worker: ServiceProcess;
  let bot: { 'Api-Key': string };
  const archives = () => new SeasonArchiveStore(testStores().pool);
  before(async () => {
    worker = await startWorker();
    game = await createGame();
    bot = { 'Api-Key': (await createThirdPartyKey(game)).apiKey };
  });
  after(async () => {
    await worker.stop();
  });

  /** A leaderboard whose season 1, one player per score, has been reset and archived. */
  async function archivedSeason(scores: number[], settings: Record<string, unknown> = {}) {
    const leaderboard = await createLeaderboard(game, settings);
    const board = await internalBoard(game, leaderboard);
    const players = await scoredPlayers(game, leaderboard, scores);
    const model = new ReferenceBoard();
    players.forEach((player, i) => model.report(player.playerId, scores[i]!));
    await api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game)).expect(200);
    await waitForPersistence(board);
    return { leaderboard, board, players, model };
  }

  /** The season as reads should show it without the withdrawn players: best first, competition ranks among the rest. */
  function visibleModel(model: ReferenceBoard, withdrawn: Set<string>): [string, number, number][] {
    const shown = new ReferenceBoard(model.order);
    for (const [player, score] of model.best) if (!withdrawn.has(player)) shown.report(player, score);
    return shown.ordered().map(({ player, score, rank }) => [player, score, rank]);
  }

  const asTuples = (entries: { player_id: string; score: number; rank: number }[]) =>
    entries.map((entry): [string, number, number] => [entry.player_id, entry.score, entry.rank]);

  /** Every read of season 1 a user can make, as JSON bodies (statuses included), to compare before and after. */
  async function everyRead(leaderboard: string, players: TestPlayer[]) {
    const reads: Record<string, unknown> = {};
    const n = players.length;
    for (const limit of [1, 2, 3, 5, n + 1]) {
      for (let offset = 0; offset <= n; offset += 1) {
        const res = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}?season=1&limit=${limit}&offset=${offset}`).set(bot);
        reads[`page ${offset}/${limit}`] = [res.status, res.body];
      }
    }
    for (const player of players) {
      const record = await api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${player.playerId}?season=1`).set(secretKey(game));
      reads[`record ${player.playerId}`] = [record.status, record.status === 200 ? record.body : record.body.error.code];
      for (const range of [1, 2]) {
        const around = await api()
          .get(`/api/v1/client/leaderboards/${leaderboard}/around_me?range=${range}&season=1`)
          .set({ 'Publishable-Key': game.publishableKey, 'Anonymous-Authorization': player.token });
        reads[`around ${player.playerId} ${range}`] = [around.status, around.status === 200 ? around.body : around.body.error.code];
      }
    }
    const seasons = await api().get(`/api/v1/server/leaderboards/${leaderboard}/seasons`).set(secretKey(game)).expect(200);
    reads.seasons = seasons.body;
    return reads;
  }

  /** Asserts that every read equals the model of the season without `withdrawn`. */
  async function expectReadsWithout(leaderboard: string, players: TestPlayer[], model: ReferenceBoard, withdrawn: Set<string>) {
    const expected = visibleModel(model, withdrawn);
    const label = `without ${[...withdrawn].join(', ')}`;
    for (const limit of [1, 2, 3, 5, 50]) {
      for (let offset = 0; offset <= expected.length; offset += 1) {
        const res = await api()
          .get(`/api/v1/third_party/leaderboards/${leaderboard}?season=1&limit=${limit}&offset=${offset}`)
          .set(bot)
          .expect(200);
        expect(res.body.total, label).to.equal(expected.length);
        expect(asTuples(res.body.entries), `${label}, offset ${offset}, limit ${limit}`).to.deep.equal(
          expected.slice(offset, offset + limit),
        );
      }
    }
    for (const player of players) {
      const record = api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${player.playerId}?season=1`).set(secretKey(game));
      const around = api()
        .get(`/api/v1/client/leaderboards/${leaderboard}/around_me?range=2&season=1`)
        .set({ 'Publishable-Key': game.publishableKey, 'Anonymous-Authorization': player.token });
      const at = expected.findIndex(([id]) => id === player.playerId);
      if (at === -1) {
        expect((await record.expect(404)).body.error.code, label).to.equal('record_not_found');
        expect((await around.expect(404)).body.error.code, label).to.equal('record_not_found');
        continue;
      }
      const [, score, rank] = expected[at]!;
      expect((await record.expect(200)).body, label).to.include({ score, rank, total: expected.length });
      const aroundBody = (await around.expect(200)).body;
      expect(aroundBody.total, label).to.equal(expected.length);
      expect(asTuples(aroundBody.entries), `${label}, around ${player.playerId}`).to.deep.equal(
        expected.slice(Math.max(0, at - 2), at + 3),
      );
    }
    const seasons = await api().get(`/api/v1/server/leaderboards/${leaderboard}/seasons`).set(secretKey(game)).expect(200);
    expect(seasons.body.seasons.find((each: { season: number }) => each.season === 1).total, label).to.equal(expected.length);
  }

  it('when 1 to 3 players (the top one, tied ones) are banned, then every page, record, around_me and total of the archive reads as if they had never scored, and the unban restores every read exactly', async () => {
    const scores = [100, 90, 90, 90, 80, 70, 70, 60, 50, 40, 30, 30, 20, 10];
    const { leaderboard, players, model } = await archivedSeason(scores);
    const before = await everyRead(leaderboard, players);
    const ordered = model.ordered().map(({ player }) => player);
    // The top player; one of three tied at 90 (the middle one) and one of two tied at 70; the top, the last tied 90 and a tied 30.
    const bans = [[ordered[0]!], [ordered[2]!, ordered[5]!], [ordered[0]!, ordered[3]!, ordered[10]!]];
    for (const banned of bans) {
      for (const playerId of banned) await archives().hidePlayer(game.gameId, playerId);
      await expectReadsWithout(leaderboard, players, model, new Set(banned));
      for (const playerId of banned) await archives().showPlayer(game.gameId, playerId);
      expect(await everyRead(leaderboard, players), `after unbanning ${banned.join(', ')}`).to.deep.equal(before);
    }
  });

  it('when a ban is of another game or repeated, then it touches only that game and is idempotent, and rows stay numbered as stored', async () => {
    const { leaderboard, board, players, model } = await archivedSeason([5, 4, 3]);
    const other = await createGame();
    const target = players[1]!.playerId;
    await archives().hidePlayer(other.gameId, target);
    await expectReadsWithout(leaderboard, players, model, new Set());
    await archives().hidePlayer(game.gameId, target);
    await archives().hidePlayer(game.gameId, target);
    await expectReadsWithout(leaderboard, players, model, new Set([target]));
    const { rows } = await testStores().pool.query(
      'SELECT position, rank, withdrawn FROM season_entries WHERE leaderboard_internal_id = $1 AND season = 1 ORDER BY position',
      [board.internalId],
    );
    expect(rows).to.deep.equal([
      { position: 1, rank: 1, withdrawn: null },
      { position: 2, rank: 2, withdrawn: 'banned' },
      { position: 3, rank: 3, withdrawn: null },
    ]);
  });

  it('when one archived score is removed, then reads skip it, a second removal finds nothing, and an unban does not bring it back', async () => {
    const { leaderboard, board, players, model } = await archivedSeason([50, 40, 40, 30]);
    const removed = model.ordered()[1]!.player;
    expect(await archives().removeEntry(board.internalId, 1, removed)).to.equal(true);
    expect(await archives().removeEntry(board.internalId, 1, removed)).to.equal(false);
    expect(await archives().removeEntry(board.internalId, 2, removed)).to.equal(false);
    await archives().showPlayer(game.gameId, removed);
    await expectReadsWithout(leaderboard, players, model, new Set([removed]));
    // A hidden row is not there to remove.
    const banned = model.ordered()[0]!.player;
    await archives().hidePlayer(game.gameId, banned);
    expect(await archives().removeEntry(board.internalId, 1, banned)).to.equal(false);
    await archives().showPlayer(game.gameId, banned);
    await expectReadsWithout(leaderboard, players, model, new Set([removed]));
  });

  it('when a player is erased, then no archived row of any board holds their id, clan or metadata, and reads skip them even after an unban', async () => {
    const first = await archivedSeason([30, 20, 10]);
    const erased = first.players[1]!;
    const secondBoard = await createLeaderboard(game);
    const others = await scoredPlayers(game, secondBoard, [7, 8]);
    await reportScores(game, secondBoard, [[erased, 9]]);
    await api().post(`/api/v1/server/leaderboards/${secondBoard}/reset`).set(secretKey(game)).expect(200);
    await waitForPersistence(await internalBoard(game, secondBoard));
    await archives().hidePlayer(game.gameId, erased.playerId); // erased whether hidden or not

    await archives().erasePlayer(game.gameId, erased.playerId);
    const { rows } = await testStores().pool.query<{ n: number }>('SELECT count(*)::int AS n FROM season_entries WHERE player_id = $1', [
      erased.playerId,
    ]);
    expect(rows[0]!.n).to.equal(0);
    const stripped = await testStores().pool.query(
      `SELECT position, score, rank, player_id, clan_id, metadata, withdrawn FROM season_entries
       WHERE leaderboard_internal_id = $1 AND season = 1 ORDER BY position`,
      [first.board.internalId],
    );
    expect(stripped.rows[1]).to.deep.equal({
      position: 2,
      score: 20,
      rank: 2,
      player_id: null,
      clan_id: null,
      metadata: null,
      withdrawn: 'erased',
    });
    await archives().showPlayer(game.gameId, erased.playerId);
    await expectReadsWithout(first.leaderboard, first.players, first.model, new Set([erased.playerId]));
    const page = await api().get(`/api/v1/third_party/leaderboards/${secondBoard}?season=1`).set(bot).expect(200);
    expect(asTuples(page.body.entries)).to.deep.equal([
      [others[1]!.playerId, 8, 1],
      [others[0]!.playerId, 7, 2],
    ]);
  });

  it('when a season ends while players are banned, then the archive stores their rows hidden at their rank among everyone, and an unban shows them with it', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    const scores = [60, 50, 40, 40, 30];
    const players = await scoredPlayers(game, leaderboard, scores);
    const model = new ReferenceBoard();
    players.forEach((player, i) => model.report(player.playerId, scores[i]!));
    const [banned, unbannedSince] = [players[1]!, players[2]!];
    // The live side of a ban (its scripts are built elsewhere): the score moves out of the ranking into `hidden`.
    const { redis, keys, pool } = testStores();
    for (const player of [banned, unbannedSince]) {
      await redis.zrem(keys(board).scores, player.playerId);
      await redis.hset(keys(board).hidden, player.playerId, String(model.best.get(player.playerId)));
    }
    await pool.query("UPDATE players SET banned_at = now(), ban_kind = 'ban' WHERE id = $1", [banned.playerId]);
    // `unbannedSince` was unbanned after the reset, before the archive: banned_at is null again.

    await api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game)).expect(200);
    expect(await redis.exists(keys(board).hidden)).to.equal(0);
    await waitForPersistence(board);
    expect(await redis.exists(endedSeasonKeys(testStores().prefix, board.internalId, 1).hidden)).to.equal(0);
    const { rows } = await pool.query(
      'SELECT player_id, rank, withdrawn FROM season_entries WHERE leaderboard_internal_id = $1 AND season = 1 ORDER BY position',
      [board.internalId],
    );
    expect(rows.map((row) => [row.player_id, row.rank, row.withdrawn])).to.deep.equal(
      model.ordered().map(({ player, rank }) => [player, rank, player === banned.playerId ? 'banned' : null]),
    );
    await expectReadsWithout(leaderboard, players, model, new Set([banned.playerId]));

    await pool.query('UPDATE players SET banned_at = NULL, ban_kind = NULL WHERE id = $1', [banned.playerId]);
    await archives().showPlayer(game.gameId, banned.playerId);
    await expectReadsWithout(leaderboard, players, model, new Set());
    const record = await api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${banned.playerId}?season=1`).set(secretKey(game));
    expect(record.body).to.include({ score: 50, rank: 2, total: 5 });
  });

  it('when a clan member is banned or erased, then archived clan standings stay as they were and the clan member list skips them', async () => {
    const leaderboard = await createLeaderboard(game, { type: 'clan' });
    const board = await internalBoard(game, leaderboard);
    const clan = await createClan(game);
    const members = await signupMany(game, 3);
    await joinClan(game, clan, members);
    await reportScores(game, leaderboard, [
      [members[0]!, 30],
      [members[1]!, 20],
      [members[2]!, 10],
    ]);
    await api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game)).expect(200);
    await waitForPersistence(board);
    const standing = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}/clans/${clan}?season=1`).set(bot).expect(200);

    await archives().hidePlayer(game.gameId, members[0]!.playerId);
    await archives().erasePlayer(game.gameId, members[2]!.playerId);
    const after = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}/clans/${clan}?season=1`).set(bot).expect(200);
    expect(after.body).to.deep.equal(standing.body);
    expect(standing.body).to.include({ score: 60, rank: 1, member_count: 3 });
    const list = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}/clans/${clan}/members?season=1`).set(bot).expect(200);
    expect(
      list.body.entries.map((e: { player_id: string; rank: number; clan_rank: number }) => [e.player_id, e.rank, e.clan_rank]),
    ).to.deep.equal([[members[1]!.playerId, 1, 1]]);
  });

  it('when a deep page of a 100,000-row archive with withdrawn rows is read, then it is found by index lookups only and equals the visible rows', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    const { pool } = testStores();
    const rows = 100_000;
    await pool.query(
      `INSERT INTO leaderboard_seasons (leaderboard_internal_id, season, started_at, ended_at, total, clan_total, settings)
       VALUES ($1, 1, now(), now(), $2, 0, '{}')`,
      [board.internalId, rows],
    );
    // Scores fall by one every other row (ties in pairs); every 997th row withdrawn, one in three of them erased.
    await pool.query(
      `INSERT INTO season_entries (leaderboard_internal_id, season, position, player_id, score, rank, withdrawn)
       SELECT $1, 1, i, CASE WHEN i % 2991 <> 0 THEN 'deep-' || i END, $2 - (i + 1) / 2, 2 * ((i + 1) / 2) - 1,
              CASE WHEN i % 2991 = 0 THEN 'erased' WHEN i % 997 = 0 THEN 'banned' END
       FROM generate_series(1, $2) AS i`,
      [board.internalId, rows],
    );
    await pool.query('ANALYZE season_entries');
    const visible = rows - Math.floor(rows / 997);
    const offset = visible - 30;

    const page = await new SeasonArchiveStore(pool).page(board.internalId, 1, 'players', offset, 50);
    const expected = await pool.query<{ id: string; rank: number }>(
      `SELECT player_id AS id, (rank() OVER (ORDER BY score DESC))::int AS rank FROM season_entries
       WHERE leaderboard_internal_id = $1 AND season = 1 AND withdrawn IS NULL ORDER BY position OFFSET $2 LIMIT 50`,
      [board.internalId, offset],
    );
    expect(page!.season.total).to.equal(visible);
    expect(page!.entries.map((entry) => [entry.id, entry.rank])).to.deep.equal(expected.rows.map((row) => [row.id, row.rank]));
    expect(page!.entries).to.have.length(30);

    // The very statements the store runs, planned and run on the real table: each as planned for its
    // values, and as the generic plan PostgreSQL keeps for a named statement once it has run a few times.
    const statements: { text: string; values: unknown[] }[] = [];
    const recording = { query: async (statement: { text: string; values: unknown[] }) => (statements.push(statement), { rows: [] }) };
    await new SeasonArchiveStore(recording as unknown as Pool).page(board.internalId, 1, 'players', offset, 50);
    const record = await new SeasonArchiveStore(recording as unknown as Pool).entriesOf(board.internalId, 1, 'players', ['deep-99998']);
    expect(record).to.equal(undefined);
    expect(statements).to.have.length(2);
    const client = await pool.connect();
    try {
      for (const [i, { text, values }] of statements.entries()) {
        const custom = await client.query<Explained>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
        await client.query(`PREPARE archive_read_${i} AS ${text}`);
        await client.query('SET plan_cache_mode = force_generic_plan');
        // EXECUTE takes no bound parameters: its arguments are written out.
        const args = values.map((value) => (typeof value === 'number' ? String(value) : client.escapeLiteral(String(value)))).join(', ');
        const generic = await client.query<Explained>(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE archive_read_${i}(${args})`);
        await client.query('RESET plan_cache_mode');
        for (const explained of [custom, generic]) {
          const scans = nodesOf(explained.rows[0]!['QUERY PLAN'][0].Plan).filter((node) => node['Relation Name'] === 'season_entries');
          expect(scans.length, text).to.be.above(0);
          expect(
            scans.map((node) => node['Node Type']),
            text,
          ).to.satisfy((types: string[]) =>
            types.every((type) => type === 'Index Scan' || type === 'Index Only Scan' || type === 'Bitmap Heap Scan'),
          );
        }
      }
    } finally {
      await client.query('DEALLOCATE ALL');
      client.release();
    }
  });
  it('when players are banned, unbanned and erased while a paced archive writes its slices, then every row stands as the players table does at its commit', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    const pool = testStores().pool;
    const count = 12_000; // three slices of the archive's writes
    const ids = Array.from({ length: count }, (_, i) => `${leaderboard}-p${String(i).padStart(5, '0')}`);
    await pool.query(`INSERT INTO players (id, game_id) SELECT unnest($1::text[]), $2`, [ids, game.gameId]);
    // Best first: ids[i] holds position i + 1. Slice 1 holds positions 1-5,000.
    const [bannedDuring, unbannedDuring, erasedDuring, bannedLate] = [ids[10]!, ids[20]!, ids[30]!, ids[11_000]!];
    await pool.query("UPDATE players SET banned_at = now(), ban_kind = 'ban' WHERE id = $1", [unbannedDuring]);
    const entries = ids.map((id, i) => ({ id, score: String(count - i), metadata: '', tiebreakers: [], achievedAt: undefined }));
    const players = new PlayerStore(pool);
    const moderate = async () => {
      await transactionsOn(pool)(async (client) => {
        await new PlayerStore(client).setBan(game.gameId, bannedDuring, { reason: 'during', kind: 'ban' });
        await archives().in(client).hidePlayer(game.gameId, bannedDuring);
      });
      await transactionsOn(pool)(async (client) => {
        await new PlayerStore(client).setBan(game.gameId, unbannedDuring, null);
        await archives().in(client).showPlayer(game.gameId, unbannedDuring);
      });
      await transactionsOn(pool)(async (client) => {
        await archives().in(client).erasePlayer(game.gameId, erasedDuring);
        await new PlayerStore(client).delete(game.gameId, erasedDuring);
      });
      await players.setBan(game.gameId, bannedLate, { reason: 'during', kind: 'ban' });
    };
    // The moderation runs, and commits, right after the archive's first slice of 5,000 rows is written.
    let moderated = false;
    const pace = async <T>(step: () => Promise<T>): Promise<T> => {
      const result = await step();
      const written = result as { command?: string; rowCount?: number } | undefined;
      if (!moderated && written?.command === 'INSERT' && written.rowCount === 5000) {
        moderated = true;
        await moderate();
      }
      return result;
    };
    const archived = await transactionsOn(pool)((client) =>
      archives()
        .in(client)
        .archive(
          board,
          {
            season: 1,
            startedAt: new Date(Date.now() - 1000),
            endedAt: new Date(),
            settings: {},
            players: (async function* () {
              yield entries;
            })(),
            clans: (async function* () {})(),
          },
          pace,
        ),
    );
    expect(archived).to.equal(true);
    expect(moderated, 'the moderation ran between slices').to.equal(true);
    const { rows } = await pool.query<{ position: number; player_id: string | null; withdrawn: string | null }>(
      'SELECT position, player_id, withdrawn FROM season_entries WHERE leaderboard_internal_id = $1 AND season = 1 AND position = ANY($2) ORDER BY position',
      [board.internalId, [1, 11, 21, 31, 11_001]],
    );
    expect(rows).to.deep.equal([
      { position: 1, player_id: ids[0], withdrawn: null },
      { position: 11, player_id: bannedDuring, withdrawn: 'banned' },
      { position: 21, player_id: unbannedDuring, withdrawn: null },
      { position: 31, player_id: null, withdrawn: 'erased' },
      { position: 11_001, player_id: bannedLate, withdrawn: 'banned' },
    ]);
    const total = await pool.query('SELECT count(*)::int AS n FROM season_entries WHERE leaderboard_internal_id = $1 AND season = 1', [
      board.internalId,
    ]);
    expect(total.rows[0].n).to.equal(count);
  });
});

type Explained = { 'QUERY PLAN': [{ Plan: PlanNode }] };

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/** Every node of an EXPLAIN (FORMAT JSON) plan. */
function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}
