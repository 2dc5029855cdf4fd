import { expect } from 'chai';
import { joinersJoin } from '../../api/routes/joiners.js';
import { generatedDisplayName } from '../../engine/players/display-names.js';

describe('unit: display names', () => {
  it('when a player never chose a name, then the generated one is stable, readable and depends on the id', () => {
    const name = generatedDisplayName('player-1');
    expect(name).to.match(/^[A-Z][a-z]+ [A-Z][a-z]+ \d{1,3}$/);
    expect(generatedDisplayName('player-1')).to.equal(name);
    const names = new Set(Array.from({ length: 50 }, (_, i) => generatedDisplayName(`player-${i}`)));
    expect(names.size).to.be.greaterThan(45);
  });

  it('when a name holds zero width joiners, then only those that join visible writing are accepted', () => {
    expect(joinersJoin('Plain name')).to.equal(true);
    // A joiner between two emoji (a family), a virama's joiner in Hindi, a Persian non-joiner.
    expect(joinersJoin('\u{1F468}\u200d\u{1F469}\u200d\u{1F467}')).to.equal(true);
    expect(joinersJoin('\u0915\u094d\u200d\u0937')).to.equal(true);
    expect(joinersJoin('\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645')).to.equal(true);
    // Joiners that show nothing: leading, between Latin letters, trailing an emoji.
    expect(joinersJoin('\u200dname')).to.equal(false);
    expect(joinersJoin('na\u200dme')).to.equal(false);
    expect(joinersJoin('na\u200cme')).to.equal(false);
    expect(joinersJoin('\u{1F468}\u200d')).to.equal(false);
  });
});
