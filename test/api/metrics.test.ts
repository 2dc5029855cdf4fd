import { expect } from 'chai';
import request from 'supertest';
import { api, appWith } from '../helpers/context.js';
import { ADMIN, METRICS } from '../helpers/fixtures.js';
import { checkAgainstOpenApi } from '../helpers/openapi-check.js';

describe('GET /metrics', () => {
  it('when the metrics token is sent, then the Prometheus text comes, and it is not cached', async () => {
    const res = await api().get('/metrics').set(METRICS).expect(200);
    expect(res.headers['content-type']).to.match(/^text\/plain/);
    expect(res.text).to.include('http_request_duration_seconds');
    expect(res.headers['cache-control']).to.equal('no-store');
  });

  it('when no token, another token or a bare token of the wrong kind is sent, then 401 and no metrics', async () => {
    for (const [headers, code] of [
      [{}, 'missing_token'],
      [{ Authorization: 'Bearer not-the-metrics-token' }, 'invalid_token'],
      [ADMIN, 'invalid_token'],
      [{ Authorization: METRICS.Authorization.replace('Bearer ', 'Basic ') }, 'invalid_token'],
    ] as const) {
      const res = await api().get('/metrics').set(headers).expect(401);
      expect(res.body.error.code, JSON.stringify(headers)).to.equal(code);
      expect(res.text).to.not.include('http_request_duration_seconds');
    }
  });

  it('when METRICS_TOKEN is not set, then /metrics is an unknown route, whatever is sent', async () => {
    const app = appWith({ METRICS_TOKEN: undefined });
    for (const headers of [{}, METRICS, ADMIN]) {
      const res = await request(app).get('/metrics').set(headers).expect(checkAgainstOpenApi).expect(404);
      expect(res.body.error.code).to.equal('not_found');
    }
  });
});
