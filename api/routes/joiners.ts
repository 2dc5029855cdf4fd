import tr46Tables from 'tr46/lib/regexes.js';

const ZWNJ = '\u200c';
const ZWJ = '\u200d';
// Unicode properties JavaScript patterns cannot name (Canonical_Combining_Class=Virama; Joining_Type
// around a non-joiner), from tr46, the URL standard's implementation of the same rules for domain names.
const { combiningClassVirama, validZWNJ } = tr46Tables;
// A letter and its marks ending in a virama: the joiner asks for the consonant's half or explicit form.
const LETTER_AND_MARKS = /\p{L}\p{M}*$/u;
// An emoji (with its skin tone, its emoji presentation selector) on each side: an emoji ZWJ sequence.
const EMOJI_BEFORE = /\p{Extended_Pictographic}\p{Emoji_Modifier}?\ufe0f?$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;

/**
 * Whether every zero width joiner (U+200D) and non-joiner (U+200C) in a name joins visible
 * characters the way the writing that needs it does, as Unicode's rules for identifiers allow them
 * (UAX #31 section 2.3, the rules IDNA2008 applies to domain names, and UTS #51's emoji ZWJ
 * sequences): after a letter's virama (Hindi, Malayalam and the other Indic scripts), a non-joiner
 * between letters that would otherwise join (Persian, Arabic), a joiner between two emoji (a family,
 * a profession with a skin tone, a flag). Anywhere else a joiner shows nothing, so two names that
 * look the same could differ by it.
 */
export function joinersJoin(name: string): boolean {
  const chars = [...name];
  return chars.every((char, i) => {
    if (char !== ZWJ && char !== ZWNJ) return true;
    if (i === 0) return false;
    const before = chars.slice(0, i).join('');
    if (combiningClassVirama.test(chars[i - 1]!) && LETTER_AND_MARKS.test(before)) return true;
    if (char === ZWJ) return EMOJI_BEFORE.test(before) && EMOJI_AFTER.test(chars.slice(i + 1).join(''));
    // The letters on each side up to the nearest other non-joiner, as the rule reads them.
    const from = chars.lastIndexOf(ZWNJ, i - 1) + 1;
    const to = chars.indexOf(ZWNJ, i + 1);
    return validZWNJ.test(chars.slice(from, to < 0 ? undefined : to).join(''));
  });
}
