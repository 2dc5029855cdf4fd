import { expect } from 'chai';
import { startApi, startWorker, until } from '../helpers/processes.js';

describe('process lifecycle', () => {
  it('when the worker gets SIGTERM, then it closes its connections and exits 0', async () => {
    const worker = await startWorker();
    expect(await worker.stop('SIGTERM')).to.equal(0);
    expect(worker.output()).to.include('worker stopping');
  });

  it('when the API gets SIGTERM, then it stops serving and exits 0', async () => {
    const api = await startApi();
    const ready = await fetch(`${api.url}/readyz`);
    expect(ready.status).to.equal(200);
    expect(await api.stop('SIGTERM')).to.equal(0);
    expect(await fetch(`${api.url}/healthz`).then(() => 'answered', () => 'refused')).to.equal('refused');
  });

  it('when an API cluster process (WEB_CONCURRENCY=2) is SIGKILLed, then the primary starts another and requests keep succeeding', async function () {
    this.timeout(30_000);
    const api = await startApi({ WEB_CONCURRENCY: '2' });
    try {
      // Each serving process logs "API listening" with its own pid.
      const listening = () =>
        api.output().split('\n').filter((line) => line.includes('"API listening"')).map((line) => (JSON.parse(line) as { pid: number }).pid);
      await until(() => listening().length === 2, 'both API processes to listen');
      process.kill(listening()[0]!, 'SIGKILL');
      await until(() => listening().length === 3, 'a replacement API process to listen', 10_000);
      for (let i = 0; i < 10; i += 1) expect((await fetch(`${api.url}/healthz`)).status).to.equal(200);
    } finally {
      expect(await api.stop('SIGTERM')).to.equal(0);
    }
  });
});
