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
      ['METRICS_TOKEN', 'short'],
      ['MIN_DEVICE_ID_LENGTH', '129'],
    ]) {
      expect(() => loadConfig({ [variable!]: value })).to.throw(ConfigError, variable);
    }
  });

  it('when nothing is set, then the documented defaults apply', () => {
    const config = loadConfig({});
    expect(config).to.include({ port: 3000, baseUrl: 'http://localhost:3000', appUrl: 'http://localhost:3000', webConcurrency: 1 });
    expect(config.rateLimits).to.deep.equal({ signupsPerIpPerMinute: 600, reportsPerPlayerPerSecond: 20, thirdPartyPerKeyPerSecond: 50 });
    expect(config).to.include({ metricsToken: undefined, minDeviceIdLength: 1 });
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
