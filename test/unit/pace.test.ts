import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { eachPaced, pacedTo } from '../../engine/pace.js';

describe('unit: paced background work', () => {
  it('when a step takes its time, then the work waits three times as long at a share of a quarter', async () => {
    const quarter = pacedTo(0.25);
    const started = performance.now();
    expect(await quarter(() => sleep(40, 'done'))).to.equal('done');
    // 40 ms of work and at least 120 ms of waiting (timers never fire early).
    expect(performance.now() - started).to.be.at.least(158);
  });

  it('when pages are worked on, then each page is read and worked on inside one step, in order', async () => {
    const log: string[] = [];
    async function* pages() {
      for (const page of ['a', 'b']) {
        log.push(`read ${page}`);
        yield page;
      }
    }
    const pace = async <T>(step: () => Promise<T>) => {
      log.push('step');
      return step();
    };
    await eachPaced(pages(), pace, async (page) => void log.push(`work ${page}`));
    expect(log).to.deep.equal(['step', 'read a', 'work a', 'step', 'read b', 'work b', 'step']);
  });
});
