import { expect } from 'chai';
import pg from 'pg';
import type { Queryable } from '../../engine/db.js';
import { AliasStore } from '../../engine/players/alias-store.js';
import { generatedDisplayName } from '../../engine/players/display-names.js';
import { PlayerStore } from '../../engine/players/player-store.js';
import { api, testStores } from '../helpers/context.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  joinClan,
  namedPlayer,
  secretKey,
  serverReport,
  signup,
  signupMany,
  uniqueId,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';

const lookup = (game: TestGame, playerId: string) =>
  api()
    .get(`/api/v1/server/players/${encodeURIComponent(playerId)}`)
    .set(secretKey(game));
const search = (game: TestGame, query: Partial<Record<string, string>>) =>
  api().get('/api/v1/server/players').query(query).set(secretKey(game));
const idsOf = (body: { players: { player_id: string }[] }) => body.players.map((player) => player.player_id);

interface PlanNode {
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/** The most rows any step of an analysed plan handled (all its loops together). */
function mostRows(node: PlanNode): number {
  return Math.max(node['Actual Rows'] * node['Actual Loops'], ...(node.Plans ?? []).map(mostRows));
}

async function setAliases(game: TestGame, player: TestPlayer, aliases: Record<string, string>): Promise<void> {
  await api().patch(`/api/v1/server/players/${player.playerId}`).set(secretKey(game)).send({ aliases }).expect(200);
}

describe('player lookup and search for support', () => {
  describe('GET /api/v1/server/players/:player_id', () => {
    it('when a player holds scores on some boards, then each of those boards is listed with its score and live rank, and no other', async () => {
      const game = await createGame();
      const individual = await createLeaderboard(game);
      const clanBoard = await createLeaderboard(game, { type: 'clan' });
      const ascending = await createLeaderboard(game, { sort_order: 'asc' });
      const unscored = await createLeaderboard(game);
      const clan = await createClan(game);
      const [player, rival, other] = await signupMany(game, 3);
      await joinClan(game, clan, [player!]);
      await setAliases(game, player!, { steam: uniqueId('steam') });
      await serverReport(game, rival!.playerId, [500, 10, 1], [individual, clanBoard, ascending]);
      await serverReport(game, other!.playerId, [300, 40], [individual, clanBoard]);
      await serverReport(game, player!.playerId, [400, 40, 7], [individual, clanBoard, ascending]);

      const res = await lookup(game, player!.playerId).expect(200);

      expect(res.body).to.include({
        player_id: player!.playerId,
        display_name: generatedDisplayName(player!.playerId),
        clan_id: clan,
        banned: false,
        banned_at: null,
        ban_reason: null,
      });
      expect(Object.keys(res.body.aliases)).to.deep.equal(['steam']);
      expect(Date.now() - Date.parse(res.body.created_at)).to.be.within(0, 60_000);
      expect(res.body.scores).to.deep.equal([
        { leaderboard_id: individual, score: 400, rank: 2 },
        { leaderboard_id: clanBoard, score: 40, rank: 1 },
        { leaderboard_id: ascending, score: 7, rank: 2 },
      ]);
      expect(res.body.scores.map((s: { leaderboard_id: string }) => s.leaderboard_id)).not.to.include(unscored);
    });

    it('when the player has no score anywhere, then the scores list is empty', async () => {
      const game = await createGame();
      await createLeaderboard(game);
      const player = await signup(game);

      const res = await lookup(game, player.playerId).expect(200);

      expect(res.body.scores).to.deep.equal([]);
    });

    it('when the id is unknown or belongs to another game, then it is 404 player_not_found', async () => {
      const game = await createGame();
      const elsewhere = await signup(await createGame());

      for (const id of ['no-such-player', elsewhere.playerId]) {
        const res = await lookup(game, id).expect(404);
        expect(res.body.error.code).to.equal('player_not_found');
      }
    });
  });

  describe('GET /api/v1/server/players?search=', () => {
    it('when the text is a player id, an alias id or a name prefix, then each finds its player, case-insensitively for names', async () => {
      const game = await createGame();
      const [byId, byAlias, byName] = await Promise.all([signup(game), signup(game), namedPlayer(game, `Zelda ${uniqueId('q')}`)]);
      const steamId = uniqueId('7656');
      await setAliases(game, byAlias, { steam: steamId });
      const generated = generatedDisplayName(byId.playerId);

      expect(idsOf((await search(game, { search: byId.playerId }).expect(200)).body)).to.include(byId.playerId);
      expect(idsOf((await search(game, { search: steamId }).expect(200)).body)).to.deep.equal([byAlias.playerId]);
      expect(idsOf((await search(game, { search: 'zELDA' }).expect(200)).body)).to.deep.equal([byName.playerId]);
      // A name nobody chose is stored at signup, so search finds it like any other.
      expect(idsOf((await search(game, { search: `  ${generated.toUpperCase()} ` }).expect(200)).body)).to.include(byId.playerId);
    });

    it('when the text matches an id, aliases and names, then the id comes first, then the aliases, then names by name, each player once', async () => {
      const game = await createGame();
      const [owner, holderA, holderB] = await signupMany(game, 3);
      const text = owner!.playerId;
      await setAliases(game, holderA!, { steam: text });
      await setAliases(game, holderB!, { discord: text, epic: text });
      const nameLater = await namedPlayer(game, `${text} b`);
      const nameEarlier = await namedPlayer(game, `${text.toLowerCase()} a`);
      // Holds the alias and matches by name too: listed once, among the aliases.
      const both = await namedPlayer(game, `${text} c`);
      await setAliases(game, both, { steam_alt: text });

      const res = await search(game, { search: text }).expect(200);

      const holders = [holderA!.playerId, holderB!.playerId, both.playerId].sort();
      expect(idsOf(res.body)).to.deep.equal([owner!.playerId, ...holders, nameEarlier.playerId, nameLater.playerId]);
      expect(res.body.total).to.equal(6);
    });

    it('when an id match is also an alias and a name match, then it is listed once, first', async () => {
      const game = await createGame();
      const [player, holder] = await signupMany(game, 2);
      await setAliases(game, holder!, { steam: player!.playerId });
      await api()
        .patch(`/api/v1/server/players/${player!.playerId}`)
        .set(secretKey(game))
        .send({ display_name: player!.playerId, aliases: { discord: player!.playerId } })
        .expect(200);

      const res = await search(game, { search: player!.playerId }).expect(200);

      expect(idsOf(res.body)).to.deep.equal([player!.playerId, holder!.playerId]);
      expect(res.body.total).to.equal(2);
    });

    it('when the matches span pages, then pages follow one order with the same total, and items carry the list shape', async () => {
      const game = await createGame();
      const prefix = `Page${uniqueId('')}`;
      const players: TestPlayer[] = [];
      for (let i = 0; i < 7; i++) players.push(await namedPlayer(game, `${prefix} ${String.fromCharCode(103 - i)}`));
      const holder = await signup(game);
      await setAliases(game, holder, { steam: prefix });
      const expected = [holder, ...[...players].reverse()].map((player) => player.playerId);

      const pages = [];
      for (const offset of [0, 3, 6])
        pages.push((await search(game, { search: prefix, limit: '3', offset: String(offset) }).expect(200)).body);

      expect(pages.flatMap(idsOf)).to.deep.equal(expected);
      expect(pages.map((page) => [page.total, page.limit, page.offset])).to.deep.equal([
        [8, 3, 0],
        [8, 3, 3],
        [8, 3, 6],
      ]);
      expect(pages[0].players[0]).to.have.all.keys('player_id', 'display_name', 'clan_id', 'aliases', 'banned', 'ban_kind', 'created_at');
      expect(pages[0].players[0]).to.include({ player_id: holder.playerId, banned: false, ban_kind: null, clan_id: null });
      expect(pages[0].players[0].aliases).to.deep.equal({ steam: prefix });
      const beyond = await search(game, { search: prefix, offset: '8' }).expect(200);
      expect(beyond.body).to.include({ total: 8 });
      expect(beyond.body.players).to.deep.equal([]);
    });

    it('when a prefix matches over 1,000 players more than the page, then total counts that far and says so, and paging still reaches every match', async () => {
      const game = await createGame();
      // Inserted directly: 1,200 signups through the API would take a while.
      await testStores().pool.query(
        `INSERT INTO players (id, game_id, display_name)
         SELECT $2 || i, $1, 'Many ' || lpad(i::text, 4, '0') FROM generate_series(1, 1200) AS i`,
        [game.gameId, `m${uniqueId('').slice(1)}`],
      );

      const first = (await search(game, { search: 'm', limit: '10' }).expect(200)).body;
      expect(first).to.include({ total: 1011, total_exact: false, limit: 10, offset: 0 });
      expect(first.players.map((player: { display_name: string }) => player.display_name)).to.deep.equal(
        Array.from({ length: 10 }, (_, i) => `Many ${String(i + 1).padStart(4, '0')}`),
      );
      const last = (await search(game, { search: 'MANY', limit: '50', offset: '1150' }).expect(200)).body;
      expect(last).to.include({ total: 1200, total_exact: true });
      expect(last.players.map((player: { display_name: string }) => player.display_name).at(-1)).to.equal('Many 1200');
      expect((await search(game, { search: 'many 000' }).expect(200)).body).to.include({ total: 9, total_exact: true });
    });

    it('when the text holds %, _ or \\, then they match only themselves', async () => {
      const game = await createGame();
      const tag = uniqueId('w');
      const percent = await namedPlayer(game, `${tag}%off`);
      const underscore = await namedPlayer(game, `${tag}_x`);
      const backslash = await namedPlayer(game, `${tag}\\y`);
      await namedPlayer(game, `${tag}Aoff`);
      await namedPlayer(game, `${tag}zx`);

      const found = async (text: string) => idsOf((await search(game, { search: text }).expect(200)).body);

      expect(await found(`${tag}%`)).to.deep.equal([percent.playerId]);
      expect(await found(`${tag}_`)).to.deep.equal([underscore.playerId]);
      expect(await found(`${tag}\\`)).to.deep.equal([backslash.playerId]);
      expect(await found(`${tag}`)).to.have.length(5);
    });

    it("when another game's player matches by id, alias or name, then it is never found", async () => {
      const game = await createGame();
      const otherGame = await createGame();
      const name = `Ghost ${uniqueId('g')}`;
      const stranger = await namedPlayer(otherGame, name);
      await setAliases(otherGame, stranger, { steam: `${name}-steam` });

      for (const text of [stranger.playerId, `${name}-steam`, name]) {
        const res = await search(game, { search: text }).expect(200);
        expect(res.body).to.deep.include({ players: [], total: 0 });
      }
    });

    it('when search is missing, blank, longer than 64 characters or holds NUL, then it is 400 validation_failed', async () => {
      const game = await createGame();

      for (const query of [
        {},
        { search: '' },
        { search: '   ' },
        { search: 'x'.repeat(65) },
        { search: 'a\u0000b' },
        { search: 'a', limit: '0' },
      ]) {
        const res = await search(game, query).expect(400);
        expect(res.body.error.code, JSON.stringify(query)).to.equal('validation_failed');
      }
      await search(game, { search: ` ${'x'.repeat(64)} ` }).expect(200);
    });
  });

  describe('stored generated names', () => {
    it('when a player signs up, then the name shown is stored with them', async () => {
      const game = await createGame();
      const player = await signup(game);

      const { rows } = await testStores().pool.query('SELECT display_name FROM players WHERE id = $1', [player.playerId]);

      expect(rows[0].display_name).to.equal(generatedDisplayName(player.playerId));
    });

    it('when a player from before the migration is backfilled, then the name shown is the same before and after, and search finds it after', async () => {
      const game = await createGame();
      const { pool } = testStores();
      // A player as they were stored before sql/010: no display name, shown the generated one.
      const playerId = uniqueId('old');
      await pool.query('INSERT INTO players (id, game_id) VALUES ($1, $2)', [playerId, game.gameId]);
      const before = (await lookup(game, playerId).expect(200)).body.display_name;
      expect((await search(game, { search: before }).expect(200)).body.total).to.equal(0);

      // What sql/010 ran on every such row.
      await pool.query('UPDATE players SET display_name = generated_display_name(id) WHERE id = $1 AND display_name IS NULL', [playerId]);

      expect((await lookup(game, playerId).expect(200)).body.display_name).to.equal(before);
      expect(idsOf((await search(game, { search: before }).expect(200)).body)).to.deep.equal([playerId]);
    });

    it("when PostgreSQL's generated name is compared with the service's on many ids, then they are equal", async () => {
      const ids = Array.from({ length: 5000 }, (_, i) => `${uniqueId('n')}${i}${i % 5 === 0 ? 'é✓' : ''}`);

      const { rows } = await testStores().pool.query<{ id: string; name: string }>(
        'SELECT id, generated_display_name(id) AS name FROM unnest($1::text[]) AS id',
        [ids],
      );

      expect(rows.filter((row) => row.name !== generatedDisplayName(row.id))).to.deep.equal([]);
      expect(rows).to.have.length(ids.length);
    });
  });

  describe('query plans at scale', () => {
    it('when a game has 1,000,000 players, then no search query scans players or player_aliases sequentially', async function () {
      this.timeout(120_000);
      // A schema of its own holding players and player_aliases with the very indexes the migrations
      // made: filled before they are built (bulk builds take seconds, a million indexed inserts far
      // longer), then found first on the search path, and dropped whole after.
      const schema = `plan_${uniqueId('').slice(1)}`;
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      try {
        await client.query(`CREATE SCHEMA ${schema}`);
        await client.query(`SET search_path = ${schema}, public`);
        await client.query(`CREATE TABLE ${schema}.players (LIKE public.players INCLUDING DEFAULTS)`);
        await client.query(`CREATE TABLE ${schema}.player_aliases (LIKE public.player_aliases INCLUDING DEFAULTS)`);
        // Names of both kinds (one in ten generated, the others chosen); every tenth player has an alias.
        await client.query(
          `INSERT INTO players (id, game_id, display_name)
           SELECT 'plan' || i, 'g_plan', CASE WHEN i % 10 = 0 THEN generated_display_name('plan' || i) ELSE 'N' || md5(i::text) END
           FROM generate_series(1, 1000000) AS i`,
        );
        await client.query(
          `INSERT INTO player_aliases (game_id, alias_type, alias_id, player_id)
           SELECT 'g_plan', 'steam', 'steam' || i, 'plan' || i FROM generate_series(1, 1000000, 10) AS i`,
        );
        const { rows: indexes } = await client.query<{ indexdef: string }>(
          "SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename IN ('players', 'player_aliases')",
        );
        for (const { indexdef } of indexes) await client.query(indexdef.replace(/ ON public\./, ` ON ${schema}.`));
        await client.query('VACUUM ANALYZE players');
        await client.query('VACUUM ANALYZE player_aliases');

        // The stores run their own SQL; each statement is explained with its values instead of run.
        const plans: string[] = [];
        const explaining = {
          async query(text: string, values: unknown[]) {
            const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values);
            plans.push(`${text}\n${rows.map((row) => row['QUERY PLAN']).join('\n')}`);
            return { rows: [{ count: 0 }] };
          },
        } as unknown as Queryable;
        const store = new PlayerStore(explaining);
        // Support's searches: ids, aliases, names and prefixes down to one letter. (A prefix that nine in ten
        // of the game's players share, such as 'n' here, is counted by a parallel scan: PostgreSQL's right
        // choice when the count reads most of the table anyway.)
        for (const text of ['plan77', 'steam71', 'swift o', 'n1a', 'Swift Otter 1', 's', 'q']) {
          await store.exactMatches('g_plan', text);
          await store.namePrefixPage('g_plan', text, ['plan77'], 0, 50, 1051);
          await store.namePrefixPage('g_plan', text, [], 5000, 50, 6051);
        }
        await store.findInGame('g_plan', 'plan77');
        await new AliasStore(explaining).ofMany(Array.from({ length: 50 }, (_, i) => `plan${i * 3}`));

        const sequential = plans.filter((plan) => /Seq Scan on (players|player_aliases)/.test(plan));
        expect(sequential, sequential.join('\n\n')).to.deep.equal([]);

        // Run for real: a prefix shared by many (nine in ten for 'n') is counted no further than asked,
        // so no step of any statement handles more rows than the page and the count's bound.
        const busiest = new Map<string, number>();
        const measuring = {
          async query(text: string, values: unknown[]) {
            const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
            busiest.set(`${text} ${JSON.stringify(values)}`, mostRows(rows[0]!['QUERY PLAN'][0].Plan));
            return { rows: [{ count: 0 }] };
          },
        } as unknown as Queryable;
        for (const text of ['n', 's', 'q']) await new PlayerStore(measuring).namePrefixPage('g_plan', text, [], 0, 50, 1051);
        const over = [...busiest].filter(([, rows]) => rows > 1051);
        expect(over, over.map(([statement, rows]) => `${rows} rows: ${statement}`).join('\n')).to.deep.equal([]);
        if (process.env.PRINT_PLANS) console.log(plans.join('\n\n'));
      } finally {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
    });
  });
});
