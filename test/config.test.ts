import { expect } from 'chai';
import { loadConfig, ConfigError } from '../engine/config.js';
import { spawnEntryPoint } from './helpers/processes.js';

describe('configuration', () => {
  it('when a value is malformed, then loading names the variable', () => {
    for (const [variable, value] of [
      ['PORT', 'eighty'],
      ['REDIS_URL', 'ftp://example'],
      ['WEB_CONCURRENCY', '0'],
      ['TOKEN_TTL_SECONDS', '-5'],
      ['RATE_LIMIT_REPORTS_PER_PLAYER_PER_SECOND', 'lots'],
      ['RATE_LIMIT_WEB_PER_IP_PER_MINUTE', '-1'],
      ['HEADERS_TIMEOUT_MS', '0'],
      ['REQUEST_TIMEOUT_MS', 'soon'],
      ['MAX_CONNECTIONS', '-1'],
      ['METRICS_TOKEN', 'short'],
      ['MIN_DEVICE_ID_LENGTH', '129'],
      ['TRUST_PROXY', 'proxy.example'],
    ]) {
      expect(() => loadConfig({ [variable!]: value })).to.throw(ConfigError, variable);
    }
  });

  it('when nothing is set, then the documented defaults apply', () => {
    const config = loadConfig({});
    expect(config).to.include({ port: 3000, baseUrl: 'http://localhost:3000', appUrl: 'http://localhost:3000', webConcurrency: 1 });
    expect(config.rateLimits).to.deep.equal({
      signupsPerIpPerMinute: 600,
      reportsPerPlayerPerSecond: 20,
      thirdPartyPerKeyPerSecond: 50,
      webPerIpPerMinute: 3000,
      dashboardPerIpPerMinute: 1200,
      dashboardSignInsPerIpPerMinute: 10,
    });
    expect(config).to.include({
      trustProxy: 0,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      maxConnections: 0,
      metricsToken: undefined,
      minDeviceIdLength: 1,
    });
  });

  it('when TRUST_PROXY would trust every hop, then loading refuses it, naming the variable', () => {
    for (const value of ['true', '0.0.0.0/0', '::/0', '10.0.0.1, 0.0.0.0/0']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).to.throw(
        ConfigError,
        /^Invalid configuration: TRUST_PROXY: must not trust every hop/,
      );
    }
  });

  it('when TRUST_PROXY names a hop count or proxies, then Express gets exactly that', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).to.equal(1);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).to.equal(0);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback, 2001:db8::1' }).trustProxy).to.deep.equal([
      '10.0.0.0/8',
      'loopback',
      '2001:db8::1',
    ]);
  });

  it('when the header timeout is longer than the request timeout, then loading refuses it', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '10000' })).to.throw(
      ConfigError,
      /HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS/,
    );
  });

  for (const entry of ['api', 'worker'] as const) {
    it(`when the ${entry} starts with a bad value, then it stops with one line naming the variable`, async () => {
      const child = spawnEntryPoint(entry, { PORT: 'not-a-port', WORKER_CONCURRENCY: 'many' });
      const code = await child.exited;
      expect(code).to.equal(1);
      const lines = child.output().trim().split('\n');
      expect(lines).to.have.length(1);
      expect(lines[0]).to.match(/^Invalid configuration: (PORT|WORKER_CONCURRENCY)/);
    });
  }
});
