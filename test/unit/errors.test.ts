import { expect } from 'chai';
import { statusOf, toAppError } from '../../api/middleware/errors.js';
import { AppError, ERROR_CODES, NotFoundError, UnavailableError, isUnavailable } from '../../engine/errors.js';

describe('unit: error codes and their HTTP statuses', () => {
  it('when any error code is mapped, then it has a 4xx status, or 503 unavailable, or 500 internal', () => {
    for (const code of ERROR_CODES) {
      const status = statusOf(code);
      if (code === 'unavailable') expect(status).to.equal(503);
      else if (code === 'internal') expect(status).to.equal(500);
      else expect(status, code).to.be.within(400, 499);
    }
    expect(statusOf('not_found')).to.equal(404);
    expect(statusOf('rate_limited')).to.equal(429);
  });

  it('when a body parser fails, then its error becomes the matching 4xx code', () => {
    expect(toAppError({ type: 'entity.parse.failed' }).code).to.equal('invalid_json');
    const tooLarge = toAppError({ type: 'entity.too.large', limit: 131072 });
    expect(tooLarge.code).to.equal('payload_too_large');
    expect(tooLarge.message).to.contain('128 KiB');
    expect(toAppError({ type: 'charset.unsupported' }).code).to.equal('unsupported_media_type');
    expect(toAppError({ type: 'request.aborted' }).code).to.equal('invalid_json');
    expect(toAppError(new URIError('URI malformed')).code).to.equal('not_found');
  });

  it('when the error is a domain error, then it passes as it is; a bug becomes internal', () => {
    const notFound = new NotFoundError('leaderboard_not_found', 'gone');
    expect(toAppError(notFound)).to.equal(notFound);
    expect(toAppError(new TypeError('x is undefined')).code).to.equal('internal');
    expect(toAppError('a string').code).to.equal('internal');
  });

  it('when Redis or PostgreSQL is unreachable, then the error is an outage (503), not a bug', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
    const adminShutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    for (const error of [
      refused,
      adminShutdown,
      new Error('Connection is closed.'),
      new Error('CLUSTERDOWN The cluster is down'),
      new UnavailableError(),
    ]) {
      expect(isUnavailable(error), error.message).to.equal(true);
      expect(toAppError(error).code).to.equal('unavailable');
    }
    expect(isUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).to.equal(false);
    expect(isUnavailable(new AppError('conflict', 'no'))).to.equal(false);
  });
});
