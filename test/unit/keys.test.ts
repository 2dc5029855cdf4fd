import { expect } from 'chai';
import calculateSlot from 'cluster-key-slot';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  BEST_RANK_LEVELS,
  MEMBER_BUCKETS,
  allBestRankKeys,
  allMemberKeys,
  datasetKey,
  endedSeasonKeys,
  leaderboardKeys,
  lockKey,
  memberKey,
  mergeScoresKeys,
  pendingIndexKey,
  queuePrefix,
  reportScoreKeys,
  requestRetryKey,
  resetSeasonKeys,
  scoresOfKeys,
} from '../../engine/live/keys.js';
import { luaDir } from '../../engine/paths.js';

describe('unit: Redis key builders', () => {
  it("when a board's keys are built, then every one carries the board's hash tag and so lands in one Cluster slot", () => {
    const keys = [
      ...Object.values(leaderboardKeys('lb', 42)),
      ...Object.values(endedSeasonKeys('lb', 42, 5)),
      ...reportScoreKeys('lb', 42, 'player', 'digest'),
      ...resetSeasonKeys('lb', 42, 5),
      ...mergeScoresKeys('lb', 42, ['a', 'b', 'c']),
      ...scoresOfKeys('lb', 42, 'clans', 5),
      ...allMemberKeys('lb', 42).slice(0, 100),
      ...allBestRankKeys('lb', 42).slice(0, 100),
      lockKey('lb', 'prepare', { internalId: 42 }),
    ];
    for (const key of keys) expect(key, key).to.match(/^lb:lb:\{42\}:/);
    expect(new Set(keys.map((key) => calculateSlot(key)))).to.deep.equal(new Set([calculateSlot('{42}')]));
  });

  it('when two boards are keyed, then their tags differ, so Cluster may place them on different nodes', () => {
    expect(calculateSlot(leaderboardKeys('lb', 1).scores)).to.not.equal(calculateSlot(leaderboardKeys('lb', 2).scores));
  });

  it('when keys span boards (the pending index, a request retry, the queue shards), then each has a slot of its own apart from any board', () => {
    expect(pendingIndexKey('lb')).to.equal('lb:pending-boards');
    expect(requestRetryKey('lb', 'd')).to.equal('lb:idem:d');
    // BullMQ keeps one queue's keys in one slot: each shard's prefix is its own hash tag.
    expect(queuePrefix('lb', 0)).to.equal('lb:{q0}');
    expect(calculateSlot(`${queuePrefix('lb', 0)}:persist:wait`)).to.equal(calculateSlot(`${queuePrefix('lb', 0)}:persist:id`));
    expect(calculateSlot(queuePrefix('lb', 0))).to.not.equal(calculateSlot(queuePrefix('lb', 1)));
    expect(datasetKey('lb', 'a')).to.equal('lb:dataset:{a}');
  });

  it("when a player's membership is keyed, then it is one of the board's buckets, the same every time", () => {
    const all = new Set(allMemberKeys('lb', 9));
    expect(all.size).to.equal(MEMBER_BUCKETS);
    for (const player of ['a', 'player-1', 'ünïcode', 'x'.repeat(64)]) {
      expect(all.has(memberKey('lb', 9, player)), player).to.equal(true);
      expect(memberKey('lb', 9, player)).to.equal(memberKey('lb', 9, player));
    }
  });

  it("when a board's best-rank hashes are listed, then they are every bucket of every level the Lua include writes", () => {
    const include = readFileSync(path.join(luaDir, 'includes', 'best-ranks.lua'), 'utf8');
    const levels = /^local BEST_RANK_LEVELS = (.*)$/m.exec(include)![1]!;
    expect([...levels.matchAll(/buckets = (\d+)/g)].map((m) => Number(m[1]))).to.deep.equal([...BEST_RANK_LEVELS]);
    const base = leaderboardKeys('lb', 9).bestRanks;
    const keys = allBestRankKeys('lb', 9);
    expect(keys).to.have.length(1 + BEST_RANK_LEVELS[0] + BEST_RANK_LEVELS[1]);
    expect([keys[0], keys[1], keys.at(-1)]).to.deep.equal([`${base}:level`, `${base}:1:0`, `${base}:2:${BEST_RANK_LEVELS[1] - 1}`]);
  });

  it('when renamed key fields are built, then their Redis key strings are the ones a running deployment already holds', () => {
    const keys = leaderboardKeys('lb', 3);
    expect(keys.endedSeasons).to.equal('lb:lb:{3}:archives');
    expect(keys.versionClock).to.equal('lb:lb:{3}:clan-clock');
    expect(endedSeasonKeys('lb', 3, 2).scores).to.equal('lb:lb:{3}:s:2:scores');
  });
});
