import { expect } from 'chai';
import { AppError } from '../../engine/errors.js';
import { LiveStateGuard } from '../../engine/live/live-state-guard.js';

const board = { internalId: 5 };
/** An error as Redis reports a script's error_reply (engine/live/scripts/includes/live-season.lua). */
const scriptError = (message: string) => new Error(message);

describe('unit: the live-state guard around script calls', () => {
  it('when a call finds its board missing (LBMISSING), then the board is recovered and the call asked again', async () => {
    const guard = new LiveStateGuard();
    const recovered: number[] = [];
    guard.recoverWith(async (b) => void recovered.push(b.internalId));
    let calls = 0;
    const answer = await guard.run(board, async () => {
      calls++;
      if (calls === 1) throw scriptError('LBMISSING the leaderboard has no live state: it is rebuilt from PostgreSQL');
      return 'answered';
    });
    expect(answer).to.equal('answered');
    expect(calls).to.equal(2);
    expect(recovered).to.deep.equal([5]);
  });

  it('when a call finds its season due (LBDUE <season>), then that season is ended and the call asked again', async () => {
    const guard = new LiveStateGuard();
    const ended: [number, number][] = [];
    guard.endDueWith(async (b, season) => void ended.push([b.internalId, season]));
    let calls = 0;
    const answer = await guard.run(board, async () => {
      if (++calls === 1) throw scriptError('LBDUE 12 the season reached its scheduled reset');
      return calls;
    });
    expect(answer).to.equal(2);
    expect(ended).to.deep.equal([[5, 12]]);
  });

  it('when a call finds its board missing, then its season due, then league moves due, then each is settled in turn and the call answers', async () => {
    const guard = new LiveStateGuard();
    const settled: string[] = [];
    guard.recoverWith(async () => void settled.push('recovered'));
    guard.endDueWith(async (_, season) => void settled.push(`ended ${season}`));
    guard.movesWith(async (_, season) => void settled.push(`moved ${season}`));
    const errors = ['LBMISSING gone', 'LBDUE 3 due', 'LBMOVES 3 moves due'];
    let calls = 0;
    const answer = await guard.run(board, async () => {
      const error = errors[calls++];
      if (error) throw scriptError(error);
      return 'answered';
    });
    expect(answer).to.equal('answered');
    expect(settled).to.deep.equal(['recovered', 'ended 3', 'moved 3']);
  });

  it('when the board stays missing, then the fourth attempt answers 503 unavailable without a fifth call', async () => {
    const guard = new LiveStateGuard();
    guard.recoverWith(async () => undefined);
    let calls = 0;
    const failure = await guard
      .run(board, async () => {
        calls++;
        throw scriptError('LBMISSING gone');
      })
      .catch((error: unknown) => error);
    expect(failure).to.be.instanceOf(AppError);
    expect((failure as AppError).code).to.equal('unavailable');
    expect(calls).to.equal(4);
  });

  it('when no recovery was given, then a missing board answers 503 unavailable', async () => {
    const failure = await new LiveStateGuard()
      .run(board, () => Promise.reject(scriptError('LBMISSING gone')))
      .catch((error: unknown) => error);
    expect((failure as AppError).code).to.equal('unavailable');
  });

  it('when a call fails for another reason, then the error passes through and nothing is recovered', async () => {
    const guard = new LiveStateGuard();
    let recovered = false;
    guard.recoverWith(async () => void (recovered = true));
    const other = scriptError('ERR something else, not LBMISSING at the start');
    const failure = await guard.run(board, () => Promise.reject(other)).catch((error: unknown) => error);
    expect(failure).to.equal(other);
    expect(recovered).to.equal(false);
  });
});
