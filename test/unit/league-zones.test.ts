import { expect } from 'chai';
import fc from 'fast-check';
import { leagueZones, type GroupStandings, type LeagueSettings } from '../../engine/competitions/leagues.js';

const league = (promote: number, relegate: number): LeagueSettings => ({
  size: 50,
  tiers: ['bronze', 'silver', 'gold'],
  promote,
  relegate,
});

/** Competition ranks of scores, best (highest) first: a group's standings as a read gives them. */
function standings(scores: number[], unscored = 0): GroupStandings {
  const sorted = [...scores].sort((a, b) => b - a);
  return {
    ranked: sorted.map((score, i) => ({ playerId: `p${i}`, rank: 1 + sorted.filter((other) => other > score).length })),
    unscored: Array.from({ length: unscored }, (_, i) => `u${i}`),
  };
}

const zonesOf = (group: GroupStandings, settings: LeagueSettings, tier: number) => Object.fromEntries(leagueZones(group, settings, tier));

describe('unit: league zones (who moves at a season end)', () => {
  it('when a middle-tier group of 6 has no ties, then the best 2 promote and the worst 2 relegate', () => {
    expect(zonesOf(standings([60, 50, 40, 30, 20, 10]), league(2, 2), 1)).to.deep.equal({
      p0: 'promote',
      p1: 'promote',
      p2: 'stay',
      p3: 'stay',
      p4: 'relegate',
      p5: 'relegate',
    });
  });

  it('when players tie across a cut, then all of them move if that stays within half the group, else none of them', () => {
    // 2nd and 3rd tie at the promotion cut of 2: three movers fit within 4 (half of 8).
    expect(zonesOf(standings([80, 70, 70, 50, 40, 30, 20, 10]), league(2, 0), 1)).to.include({
      p0: 'promote',
      p1: 'promote',
      p2: 'promote',
    });
    // In a group of 4 the cap is 2: the tied pair at the cut would make 3, so only the one above it moves.
    expect(zonesOf(standings([80, 70, 70, 10]), league(2, 0), 1)).to.deep.equal({ p0: 'promote', p1: 'stay', p2: 'stay', p3: 'stay' });
    // Everyone tied: nobody moves either way.
    expect(Object.values(zonesOf(standings([5, 5, 5, 5]), league(1, 1), 1))).to.deep.equal(['stay', 'stay', 'stay', 'stay']);
  });

  it('when a group is in the top or the lowest tier, then nobody moves past the end of the ladder', () => {
    expect(Object.values(zonesOf(standings([3, 2, 1, 0]), league(1, 1), 2))).to.not.include('promote');
    expect(Object.values(zonesOf(standings([3, 2, 1, 0]), league(1, 1), 0))).to.not.include('relegate');
  });

  it('when members have no score, then they rank last for relegation and never promote', () => {
    // Promotion stops at the scored players; the two unscored tie at the relegation cut and fit within half.
    expect(zonesOf(standings([30, 20], 2), league(3, 1), 1)).to.deep.equal({
      p0: 'promote',
      p1: 'promote',
      u0: 'relegate',
      u1: 'relegate',
    });
    expect(zonesOf(standings([30, 20, 10], 1), league(0, 1), 1)).to.deep.equal({ p0: 'stay', p1: 'stay', p2: 'stay', u0: 'relegate' });
  });

  it('when groups and settings are random, then the zones follow the rule: within the cap, ties whole, never both ways', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 30 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 2 }),
        (scores, unscored, promote, relegate, tier) => {
          const group = standings(scores, unscored);
          const zones = leagueZones(group, league(promote, relegate), tier);
          const visible = group.ranked.length + group.unscored.length;
          const cap = Math.floor(visible / 2);
          const rankOf = new Map(group.ranked.map((m) => [m.playerId, m.rank]));
          const last = group.ranked.length + 1;
          const movers = (zone: string) => [...zones].filter(([, z]) => z === zone).map(([id]) => id);
          const [up, down] = [movers('promote'), movers('relegate')];
          // Never both ways: each cut alone gives the same movers, and no player is in both.
          const upAlone = [...leagueZones(group, league(promote, 0), tier)].filter(([, z]) => z === 'promote').map(([id]) => id);
          const downAlone = [...leagueZones(group, league(0, relegate), tier)].filter(([, z]) => z === 'relegate').map(([id]) => id);
          expect(up).to.have.members(upAlone);
          expect(down).to.have.members(downAlone);
          expect(upAlone.filter((id) => downAlone.includes(id))).to.deep.equal([]);
          // A tie at the cut may carry more than asked, never more than half the group.
          expect(up.length).to.be.at.most(cap);
          if (promote === 0) expect(up).to.deep.equal([]);
          if (relegate === 0) expect(down).to.deep.equal([]);
          expect(down.length).to.be.at.most(cap);
          if (tier === 2) expect(up).to.deep.equal([]);
          if (tier === 0) expect(down).to.deep.equal([]);
          // Ties move whole: whoever ranks at least as well as a promoted player is promoted too, and
          // whoever ranks at least as badly as a relegated one is relegated.
          for (const id of up) {
            expect(rankOf.has(id)).to.equal(true);
            for (const [other, rank] of rankOf) if (rank <= rankOf.get(id)!) expect(zones.get(other)).to.equal('promote');
          }
          const rankAll = (id: string) => rankOf.get(id) ?? last;
          for (const id of down)
            for (const other of zones.keys()) if (rankAll(other) >= rankAll(id)) expect(zones.get(other)).to.equal('relegate');
          // As many as asked move when no tie is cut and the cap allows.
          if (tier < 2 && group.ranked.length > promote && promote <= cap) {
            const bound = group.ranked[promote - 1]?.rank;
            const next = group.ranked[promote]?.rank;
            if (promote > 0 && bound !== next) expect(up.length).to.equal(promote);
          }
          const worstFirst = [...group.ranked.map((m) => m.rank), ...group.unscored.map(() => last)].reverse();
          if (
            tier > 0 &&
            relegate > 0 &&
            relegate <= cap &&
            worstFirst.length > relegate &&
            worstFirst[relegate - 1] !== worstFirst[relegate]
          ) {
            expect(down.length).to.equal(relegate);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
