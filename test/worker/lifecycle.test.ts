import { expect } from 'chai';
import { startApi, startWorker } from '../helpers/processes.js';

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
});
