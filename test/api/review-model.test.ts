import { expect } from 'chai';
import fc from 'fast-check';
import request from 'supertest';
import { api, testStores, testUrl } from '../helpers/context.js';
import { openEventStream, type EventStream } from '../helpers/event-stream.js';
import { startApi, startWorker, until, type ServiceProcess } from '../helpers/processes.js';
import { RELAXED, Receiver, verified } from '../helpers/webhook-receiver.js';
import {
  createGame,
  createLeaderboard,
  createClan,
  createThirdPartyKey,
  internalBoard,
  joinClan,
  reportScore,
  secretKey,
  sendBatch,
  serverReport,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';

/**
 * Who sees a held score, against a model (docs/review.md): random client and server reports,
 * approvals, rejections, shadow bans, unbans and resets on individual, clan and league boards of
 * either order and every score rule, with `above` and `outlier_factor` rules (deterministic;
 * `max_gain_per_second` depends on the clock and has tests of its own). After every step each
 * player's own record, around_me and list ranks, the board as a bot pages it (its clan totals on
 * clan boards, its group on league boards), the last ended season as archived, and the review queue
 * equal the model; every client report's answer equals the model's. Over a run, a bot's and a
 * player's live streams show only states the board had, ending on its last, and the webhook events
 * (`player.overtaken`, `score.held`, `season.ended`) are exactly the model's.
 */
const PLAYERS = 4;
const SCORES = [1, 2, 3, 5, 8];

type Rule = 'best' | 'latest' | 'sum';
type Order = 'desc' | 'asc';
type Op =
  | { kind: 'client' | 'server'; player: number; score: number }
  | { kind: 'approve' | 'reject' | 'shadow' | 'unban'; player: number }
  | { kind: 'reset' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('client' as const), player: fc.nat(PLAYERS - 1), score: fc.constantFrom(...SCORES) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('server' as const), player: fc.nat(PLAYERS - 1), score: fc.constantFrom(...SCORES) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('approve' as const, 'reject' as const), player: fc.nat(PLAYERS - 1) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('shadow' as const, 'unban' as const), player: fc.nat(PLAYERS - 1) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
);

const byId = (a: [string, ...unknown[]], b: [string, ...unknown[]]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * The board's counted entries, its pending holds (`shadow`: held by a shadow ban, never listed),
 * and the shadow-banned players' entries out of the ranking, as docs/review.md describes them.
 */
class ReviewModel {
  readonly counted = new Map<string, number>();
  readonly pending = new Map<string, { score: number; amount: number; shadow: boolean }>();
  readonly hidden = new Map<string, number>();
  readonly shadowed = new Set<string>();
  /** The players holding a seat this season (a league's group members): every report but a refused one. */
  readonly seated = new Set<string>();
  /** The last ended season's entries, counted or hidden when it ended. */
  archived = new Map<string, number>();
  /** The webhook events so far, each as one line (compared as a sorted list: delivery order is free). */
  readonly events: string[] = [];

  constructor(
    private readonly order: Order,
    private readonly rule: Rule,
    private readonly rules: { above: number; outlierFactor: number },
  ) {}

  better(a: number, b: number): boolean {
    return this.order === 'desc' ? a > b : a < b;
  }

  /** 1 + the counted entries strictly better than `score`, the player's own aside. */
  rankOf(player: string, score: number): number {
    return 1 + [...this.counted].filter(([id, other]) => id !== player && this.better(other, score)).length;
  }

  private applied(before: number | undefined, score: number): number {
    if (before === undefined) return score;
    if (this.rule === 'sum') return before + score;
    if (this.rule === 'latest') return score;
    return this.better(score, before) ? score : before;
  }

  /** A client report: the answer's score, rank and total. */
  client(player: string, score: number): { score: number; rank: number; total: number } {
    this.seated.add(player);
    const pending = this.pending.get(player);
    if (this.shadowed.has(player)) {
      // Always held, on their hidden entry, as if it counted.
      const hidden = this.hidden.get(player);
      const amount = (pending?.amount ?? 0) + score;
      const after = this.rule === 'sum' ? (hidden ?? 0) + amount : this.applied(pending?.score ?? hidden, score);
      this.pending.set(player, { score: after, amount: this.rule === 'sum' ? amount : 0, shadow: pending?.shadow ?? true });
      return { score: after, rank: this.rankOf(player, after), total: this.counted.size + 1 };
    }
    const counted = this.counted.get(player);
    let after: number;
    let amount = 0;
    if (this.rule === 'sum') {
      amount = (pending?.amount ?? 0) + score;
      after = (counted ?? 0) + amount;
    } else {
      after = this.applied(pending?.score ?? counted, score);
    }
    let held = pending !== undefined;
    if (!held && (counted === undefined || this.rule !== 'best' || this.better(after, counted))) {
      const top = [...this.counted.values()].sort((a, b) => (this.better(a, b) ? -1 : 1))[0];
      const bound =
        top === undefined
          ? undefined
          : this.order === 'desc'
            ? top + this.rules.outlierFactor * Math.abs(top)
            : top - this.rules.outlierFactor * Math.abs(top);
      held = this.better(after, this.rules.above) || (bound !== undefined && this.better(after, bound));
    }
    if (held) {
      if (!pending) this.events.push(`score.held ${player} ${after} from ${counted ?? null}`);
      this.pending.set(player, { score: after, amount, shadow: false });
      return { score: after, rank: this.rankOf(player, after), total: this.counted.size + (counted === undefined ? 1 : 0) };
    }
    this.count(player, this.applied(counted, score));
    return { score: this.counted.get(player)!, rank: this.rankOf(player, this.counted.get(player)!), total: this.counted.size };
  }

  server(player: string, score: number): void {
    this.seated.add(player);
    this.count(player, this.applied(this.counted.get(player), score));
  }

  /**
   * A counted entry changes: the players it passed get `player.overtaken` (docs/events.md part 5:
   * strictly ahead of its entry before, or all for a first score, strictly behind it after; every
   * rank is within the boards' notify_top).
   */
  private count(player: string, score: number): void {
    const was = this.counted.get(player);
    if (was === undefined || this.better(score, was)) {
      for (const [other, theirs] of this.counted) {
        if (other === player || !this.better(score, theirs) || (was !== undefined && !this.better(theirs, was))) continue;
        const before = 1 + [...this.counted.values()].filter((each) => this.better(each, theirs)).length;
        this.events.push(`player.overtaken ${other} ${before}->${before + 1} by ${player} ${score}`);
      }
    }
    this.counted.set(player, score);
  }

  shadowBan(player: string): void {
    if (this.shadowed.has(player)) return;
    this.shadowed.add(player);
    const counted = this.counted.get(player);
    if (counted !== undefined) this.hidden.set(player, counted);
    this.counted.delete(player);
  }

  /** The entry comes back as it was; what the shadow ban held goes, a rule's hold stays. */
  unban(player: string): void {
    if (!this.shadowed.delete(player)) return;
    const hidden = this.hidden.get(player);
    if (hidden !== undefined) this.counted.set(player, hidden);
    this.hidden.delete(player);
    if (this.pending.get(player)?.shadow) this.pending.delete(player);
  }

  approve(player: string): void {
    const { score, amount } = this.pending.get(player)!;
    this.pending.delete(player);
    this.count(player, this.applied(this.counted.get(player), this.rule === 'sum' ? amount : score));
  }

  /** What the player's own record shows: undefined for 404. */
  own(player: string): { score: number; rank: number; total: number } | undefined {
    const pending = this.pending.get(player);
    if (pending) {
      const total = this.counted.size + (this.counted.has(player) ? 0 : 1);
      return { score: pending.score, rank: this.rankOf(player, pending.score), total };
    }
    const hidden = this.hidden.get(player);
    if (hidden !== undefined) return { score: hidden, rank: this.rankOf(player, hidden), total: this.counted.size + 1 };
    const counted = this.counted.get(player);
    return counted === undefined ? undefined : { score: counted, rank: this.rankOf(player, counted), total: this.counted.size };
  }

  /** The ranks of `ids` as `viewer` asks them: rows [id, score, rank] by id, and the ids not found, sorted. */
  listRanks(viewer: string, ids: string[]): { rows: [string, number, number][]; notFound: string[] } {
    const rows: [string, number, number][] = [];
    const notFound: string[] = [];
    for (const id of ids) {
      const own = id === viewer ? this.own(id) : undefined;
      const counted = this.counted.get(id);
      if (own) rows.push([id, own.score, own.rank]);
      else if (id !== viewer && counted !== undefined) rows.push([id, counted, this.rankOf(id, counted)]);
      else notFound.push(id);
    }
    return { rows: rows.sort(byId), notFound: notFound.sort() };
  }

  /** Clan totals on a clan board: clan -> the sum of its members' counted entries (clans with none left out). */
  clanTotals(clanOf: (player: string) => string): Map<string, number> {
    const totals = new Map<string, number>();
    for (const [id, score] of this.counted) totals.set(clanOf(id), (totals.get(clanOf(id)) ?? 0) + score);
    return totals;
  }

  /** The review queue: player -> score of the holds a rule made. */
  queue(): Map<string, number> {
    return new Map([...this.pending].filter(([, held]) => !held.shadow).map(([id, held]) => [id, held.score]));
  }

  /** The board as others see it: [id, score, rank], best first (ties in any order). */
  board(): [string, number, number][] {
    return ranked(this.counted, (a, b) => this.better(a, b));
  }

  /** Ends the season: its counted and hidden entries are archived (holds are rejected), and `season.ended` tells its first entries (clans on a clan board) as the archive shows them. */
  reset(season: number, clanOf?: (player: string) => string): void {
    this.archived = new Map([...this.counted, ...this.hidden]);
    this.counted.clear();
    this.pending.clear();
    this.hidden.clear();
    this.seated.clear();
    const shown = this.archive();
    const totals = new Map<string, number>();
    for (const [id, score] of shown) totals.set(clanOf?.(id) ?? id, (totals.get(clanOf?.(id) ?? id) ?? 0) + score);
    const top = clanOf ? ranked(totals, (a, b) => this.better(a, b)) : shown;
    this.events.push(`season.ended ${season} ${shown.length} ${JSON.stringify(top.slice(0, 10))}`);
  }

  /** The last ended season as it reads now: players banned since left out, ranks closed up. */
  archive(): [string, number, number][] {
    const shown = new Map([...this.archived].filter(([id]) => !this.shadowed.has(id)));
    return ranked(shown, (a, b) => this.better(a, b));
  }
}

type Row = { player_id?: string; clan_id?: string; score: number; rank: number };

/** A read's entries (players, or clans) as [id, score, rank], best first (ties by id), as `ranked` writes the model's. */
const rowsOf = (entries: Row[]): [string, number, number][] =>
  entries
    .map((e): [string, number, number] => [(e.player_id ?? e.clan_id)!, e.score, e.rank])
    .sort((a, b) => a[2] - b[2] || (a[0] < b[0] ? -1 : 1));

/** A delivered event as the model writes it: who, what score, which ranks. */
function eventLine(type: string, data: Record<string, unknown>): string {
  if (type === 'player.overtaken') {
    const by = data.by as { player_id: string; score: number };
    return `player.overtaken ${String(data.player_id)} ${Number(data.previous_rank)}->${Number(data.rank)} by ${by.player_id} ${by.score}`;
  }
  if (type === 'score.held') return `score.held ${String(data.player_id)} ${Number(data.score)} from ${String(data.previous_score)}`;
  return `${type} ${Number(data.season)} ${Number(data.total)} ${JSON.stringify(rowsOf(data.top as Row[]))}`;
}

/** Entries as [id, score, competition rank], best first (ties by id). */
function ranked(entries: Map<string, number>, better: (a: number, b: number) => boolean): [string, number, number][] {
  return [...entries]
    .map(([id, score]): [string, number, number] => [id, score, 1 + [...entries.values()].filter((other) => better(other, score)).length])
    .sort((a, b) => a[2] - b[2] || (a[0] < b[0] ? -1 : 1));
}

const archived = async (internalId: number, season: number) =>
  (
    await testStores().pool.query('SELECT 1 FROM leaderboard_seasons WHERE leaderboard_internal_id = $1 AND season = $2', [
      internalId,
      season,
    ])
  ).rowCount === 1;

describe('held scores against a model: who sees what', function () {
  this.timeout(600_000);
  let game: TestGame;
  let apiKey: string;
  let players: TestPlayer[];
  /** Two clans of two players each: clan totals on clan boards count counted entries only. */
  const clans: string[] = [];
  const clanOf = (player: string) => clans[players.findIndex((p) => p.playerId === player) % 2]!;

  let worker: ServiceProcess;
  let relaxedApi: ServiceProcess;
  let receiver: Receiver;
  let webhookSecret: string;
  /** The events delivered for `leaderboard`, each once (a retry repeats its webhook-id), as the model writes them. */
  const delivered = (leaderboard: string): string[] => {
    const events = new Map<string, string>();
    for (const delivery of receiver.at('/ok/model')) {
      const { type, data } = verified(webhookSecret, delivery);
      if (data.leaderboard_id !== leaderboard) continue;
      events.set(String(delivery.headers['webhook-id']), eventLine(type, data));
    }
    return [...events.values()].sort();
  };

  before(async () => {
    receiver = new Receiver();
    await receiver.start();
    [worker, relaxedApi] = await Promise.all([startWorker(RELAXED), startApi(RELAXED)]);
    game = await createGame();
    webhookSecret = (
      await request(relaxedApi.url)
        .post('/api/v1/server/webhooks')
        .set(secretKey(game))
        .send({ url: receiver.url('/ok/model'), events: ['player.overtaken', 'score.held', 'season.ended'] })
        .expect(201)
    ).body.secret;
    apiKey = (await createThirdPartyKey(game)).apiKey;
    players = await signupMany(game, PLAYERS);
    for (const i of [0, 1]) {
      clans.push(await createClan(game));
      await joinClan(
        game,
        clans[i]!,
        players.filter((_, n) => n % 2 === i),
      );
    }
  });

  after(async () => {
    await Promise.all([worker.stop(), relaxedApi.stop()]);
    await receiver.stop();
  });

  it('when random reports, holds, approvals, rejections, shadow bans and resets run, then every read, event and stream from the owner and from others equals the model', async () => {
    const runs: { leaderboard: string; expected: string[] }[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Order>('desc', 'asc'),
        fc.constantFrom<Rule>('best', 'latest', 'sum'),
        fc.constantFrom<'individual' | 'clan' | 'league'>('individual', 'clan', 'league'),
        fc.nat(PLAYERS - 1),
        fc.array(op, { minLength: 1, maxLength: 24, size: 'medium' }),
        async (order, rule, kind, watcher, ops) => {
          const rules = order === 'desc' ? { above: 7, outlierFactor: 1 } : { above: 2, outlierFactor: 0.5 };
          const type = kind === 'clan' ? 'clan' : 'individual';
          const leaderboard = await createLeaderboard(game, {
            type,
            sort_order: order,
            update_strategy: rule,
            review: { above: rules.above, outlier_factor: rules.outlierFactor },
            notify_top: 10,
            // One group holds every player, so a group's standings are the board's.
            ...(kind === 'league' ? { groups: { size: 5, tiers: ['open'], promote: 0, relegate: 0 } } : {}),
          });
          const model = new ReviewModel(order, rule, rules);
          const board = await internalBoard(game, leaderboard);
          let season = 1;
          // Bans are the game's: a run starts with none.
          for (const player of players)
            await api().delete(`/api/v1/server/players/${player.playerId}/ban`).set(secretKey(game)).expect(200);
          // Live streams show counted scores only, to a bot and to a player alike (the watcher may be held or shadow-banned).
          const streams = await Promise.all([
            openEventStream(`${testUrl()}/api/v1/third_party/leaderboards/${leaderboard}/live?limit=100`, { 'Api-Key': apiKey }),
            openEventStream(`${testUrl()}/api/v1/client/leaderboards/${leaderboard}/live?limit=100&token=${players[watcher]!.token}`),
          ]);
          const states = new Set([JSON.stringify({ total: 0, rows: [] })]);
          try {
            for (const step of ops) {
              if (step.kind === 'reset') {
                await api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game)).expect(200);
                model.reset(season, type === 'clan' ? clanOf : undefined);
                season += 1;
                // Read from its archive: until the worker has written it, an ended season is read from
                // Redis, where a ban made since does not yet hide the player (docs/review.md part 5).
                await until(() => archived(board.internalId, season - 1), `season ${season - 1} archived`, 20_000);
              } else if (step.kind === 'shadow' || step.kind === 'unban') {
                const id = players[step.player]!.playerId;
                if (step.kind === 'shadow') {
                  model.shadowBan(id);
                  await api().post(`/api/v1/server/players/${id}/ban`).set(secretKey(game)).send({ shadow: true }).expect(200);
                } else {
                  model.unban(id);
                  await api().delete(`/api/v1/server/players/${id}/ban`).set(secretKey(game)).expect(200);
                }
              } else {
                const player = players[step.player]!;
                const id = player.playerId;
                if (step.kind === 'client') {
                  const expected = model.client(id, step.score);
                  const { body } = await reportScore(game, player, leaderboard, step.score).expect(200);
                  expect({ score: body.best_score, rank: body.rank, total: body.total }, `answer to ${JSON.stringify(step)}`).to.deep.equal(
                    expected,
                  );
                } else if (step.kind === 'server' && model.shadowed.has(id)) {
                  // The game server is told.
                  await sendBatch(game, { player_id: id, leaderboard_ids: [leaderboard], scores: [step.score] }).expect(403);
                } else if (step.kind === 'server') {
                  model.server(id, step.score);
                  await serverReport(game, id, [step.score], [leaderboard]);
                } else {
                  const { body } = await api().get(`/api/v1/server/reviews?leaderboard_id=${leaderboard}`).set(secretKey(game)).expect(200);
                  const review = body.reviews.find((r: { player_id: string }) => r.player_id === id);
                  expect(Boolean(review), `a pending review of ${step.player}`).to.equal(model.queue().has(id));
                  if (!review) continue;
                  const decide = api().post(`/api/v1/server/reviews/${review.review_id}/${step.kind}`).set(secretKey(game)).send({});
                  if (step.kind === 'approve' && model.shadowed.has(id)) {
                    // A banned player's score is not approved.
                    await decide.expect(403);
                    continue;
                  }
                  if (step.kind === 'approve') model.approve(id);
                  else model.pending.delete(id);
                  await decide.expect(200);
                }
              }
              const ids = players.map((p) => p.playerId);
              for (const player of players) {
                const res = await api()
                  .get(`/api/v1/client/leaderboards/${leaderboard}/players/${player.playerId}`)
                  .set('Publishable-Key', game.publishableKey)
                  .set('Anonymous-Authorization', player.token);
                const own = model.own(player.playerId);
                const shown = res.status === 200 ? { score: res.body.score, rank: res.body.rank, total: res.body.total } : undefined;
                expect(shown, `own record of ${player.playerId} after ${JSON.stringify(step)}`).to.deep.equal(own);
                // The ranks of every player, as this one asks them: only their own row is theirs to see.
                const { body: listed } = await api()
                  .get(`/api/v1/client/leaderboards/${leaderboard}/ranks?player_ids=${players.map((p) => p.playerId).join(',')}`)
                  .set('Publishable-Key', game.publishableKey)
                  .set('Anonymous-Authorization', player.token)
                  .expect(200);
                const shownRows = listed.entries
                  .map((e: { player_id: string; score: number; rank: number }) => [e.player_id, e.score, e.rank])
                  .sort(byId);
                expect(
                  { rows: shownRows, notFound: [...listed.not_found].sort() },
                  `list ranks asked by ${player.playerId} after ${JSON.stringify(step)}`,
                ).to.deep.equal(model.listRanks(player.playerId, ids));
                // around_me wide enough for the whole board: the same rows, or 404 without an entry of their own.
                const around = await api()
                  .get(`/api/v1/client/leaderboards/${leaderboard}/around_me?range=${PLAYERS}`)
                  .set('Publishable-Key', game.publishableKey)
                  .set('Anonymous-Authorization', player.token);
                const aroundShown =
                  around.status === 200
                    ? {
                        total: around.body.total,
                        rows: around.body.entries
                          .map((e: { player_id: string; score: number; rank: number }) => [e.player_id, e.score, e.rank])
                          .sort(byId),
                      }
                    : around.status;
                expect(aroundShown, `around_me of ${player.playerId} after ${JSON.stringify(step)}`).to.deep.equal(
                  own ? { total: own.total, rows: model.listRanks(player.playerId, ids).rows } : 404,
                );
              }
              const { body: page } = await api()
                .get(`/api/v1/third_party/leaderboards/${leaderboard}?limit=100`)
                .set('Api-Key', apiKey)
                .expect(200);
              expect({ total: page.total, rows: rowsOf(page.entries) }, `the board after ${JSON.stringify(step)}`).to.deep.equal({
                total: model.counted.size,
                rows: model.board(),
              });
              const { body: queue } = await api()
                .get(`/api/v1/server/reviews?leaderboard_id=${leaderboard}&limit=100`)
                .set(secretKey(game))
                .expect(200);
              const queued = new Map(queue.reviews.map((r: { player_id: string; score: number }) => [r.player_id, r.score]));
              expect(queued, `the queue after ${JSON.stringify(step)}`).to.deep.equal(model.queue());
              if (season > 1) {
                const { body: ended } = await api()
                  .get(`/api/v1/third_party/leaderboards/${leaderboard}?season=${season - 1}&limit=100`)
                  .set('Api-Key', apiKey)
                  .expect(200);
                expect(rowsOf(ended.entries), `season ${season - 1} after ${JSON.stringify(step)}`).to.deep.equal(model.archive());
              }
              if (type === 'clan') {
                const { body: standings } = await api()
                  .get(`/api/v1/third_party/leaderboards/${leaderboard}?clan=true&limit=100`)
                  .set('Api-Key', apiKey)
                  .expect(200);
                const totals = new Map(standings.entries.map((e: { clan_id: string; score: number }) => [e.clan_id, e.score]));
                expect(totals, `clan totals after ${JSON.stringify(step)}`).to.deep.equal(model.clanTotals(clanOf));
              }
              if (kind === 'league') {
                const { body: list } = await api()
                  .get(`/api/v1/server/leaderboards/${leaderboard}/groups`)
                  .set(secretKey(game))
                  .expect(200);
                const groups = list.groups.map((g: { group_id: string; players: number }) => [g.group_id, g.players]);
                expect(groups, `the groups after ${JSON.stringify(step)}`).to.deep.equal(
                  model.seated.size ? [['1', model.seated.size]] : [],
                );
                if (model.seated.size) {
                  const { body: group } = await api()
                    .get(`/api/v1/server/leaderboards/${leaderboard}/groups/1`)
                    .set(secretKey(game))
                    .expect(200);
                  expect(rowsOf(group.entries), `the group after ${JSON.stringify(step)}`).to.deep.equal(model.board());
                }
                // A player's own group read is the counted state too, their held score not in it.
                for (const player of players) {
                  const mine = await api()
                    .get(`/api/v1/client/leaderboards/${leaderboard}/group`)
                    .set('Publishable-Key', game.publishableKey)
                    .set('Anonymous-Authorization', player.token);
                  expect(mine.status === 200 ? rowsOf(mine.body.entries) : mine.status, `the group ${player.playerId} reads`).to.deep.equal(
                    model.seated.has(player.playerId) ? model.board() : 404,
                  );
                }
              }
              states.add(JSON.stringify({ total: model.counted.size, rows: model.board() }));
            }

            // Each stream's every `top` was a state of the board, and its last is the board's state now.
            const now = JSON.stringify({ total: model.counted.size, rows: model.board() });
            const tops = (stream: EventStream) =>
              stream.events
                .filter((event) => event.event === 'top')
                .map((event) => {
                  const top = JSON.parse(event.data) as { total: number; entries: Row[] };
                  return JSON.stringify({ total: top.total, rows: rowsOf(top.entries) });
                });
            for (const stream of streams) {
              expect(stream.status, 'a stream opened').to.equal(200);
              await until(() => tops(stream).at(-1) === now, `the stream to show ${now}`, 5000).catch(() => undefined);
              expect(tops(stream).at(-1), 'the last top a stream showed').to.equal(now);
              for (const shown of tops(stream)) expect(states, 'every top a stream showed').to.include(shown);
            }
            // The board's events, once the worker has delivered them.
            const expected = [...model.events].sort();
            await until(() => delivered(leaderboard).length >= expected.length, `${expected.length} events`, 30_000).catch(() => undefined);
            expect(delivered(leaderboard), 'the events delivered').to.deep.equal(expected);
            runs.push({ leaderboard, expected });
          } finally {
            // A failed run's streams too: the service counts a bot's and a player's open streams.
            for (const stream of streams) stream.close();
          }
        },
      ),
      {
        numRuns: 80,
        // Runs ending on a decision or an unban, which only a stream's last state would show.
        examples: [
          [
            'desc',
            'best',
            'league',
            0,
            [
              { kind: 'client', player: 1, score: 3 },
              { kind: 'client', player: 0, score: 8 },
              { kind: 'approve', player: 0 },
            ],
          ],
          [
            'asc',
            'sum',
            'clan',
            1,
            [
              { kind: 'server', player: 1, score: 3 },
              { kind: 'client', player: 1, score: 1 },
              { kind: 'shadow', player: 1 },
              { kind: 'client', player: 1, score: 3 },
              { kind: 'unban', player: 1 },
            ],
          ],
        ],
      },
    );
    // An event no run waited for would arrive late: none does.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    for (const run of runs) expect(delivered(run.leaderboard), `the events of ${run.leaderboard}`).to.deep.equal(run.expected);
  });
});
