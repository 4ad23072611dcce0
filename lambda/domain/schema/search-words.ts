/**
 * The words of a text as search matches them (docs/api.md#search-filters-and-facets): runs of Unicode letters and
 * digits, folded so that case and diacritics do not matter — Azerbaijani and Turkish letters as `ə→e`, `ı→i`,
 * `İ→i`, `I→i`, `ş→s`, `ç→c`, `ğ→g`, `ö→o`, `ü→u`, and any other Latin letter by removing its marks. One function
 * for both sides: what a vacancy's title and labels are indexed as, and what `q` asks for.
 */

/** Latin letters whose mark is not a combining one (no Unicode decomposition), and so is removed by hand. */
const UNDECOMPOSED: Readonly<Record<string, string>> = { ə: 'e', ı: 'i', ø: 'o', ł: 'l', đ: 'd', ħ: 'h' };
/**
 * The expressions, made on first use: Unicode property classes are built from ICU's tables when an expression is
 * made, which a listing's cold start would pay for every request that searches nothing (docs/design.md#cold-start).
 */
let expressions: { undecomposed: RegExp; latinMarks: RegExp; word: RegExp } | undefined;
function patterns() {
  expressions ??= {
    undecomposed: new RegExp(`[${Object.keys(UNDECOMPOSED).join('')}]`, 'gu'),
    /** A Latin letter and the marks on it (once decomposed): the letter is kept. Other scripts keep their marks. */
    latinMarks: /(\p{Script=Latin})\p{M}+/gu,
    /** A word: a letter or digit, then letters, digits and the marks that belong to them. */
    word: /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu,
  };
  return expressions;
}

/** A text folded: lower case (`I→i`, `İ→i`), Azerbaijani letters as above, Latin marks removed. */
export function foldText(text: string): string {
  const { undecomposed, latinMarks } = patterns();
  return text
    .toLowerCase()
    .replace(undecomposed, (letter) => UNDECOMPOSED[letter] ?? letter)
    .normalize('NFD')
    .replace(latinMarks, '$1');
}

/** The folded words of a text, in order (repeats kept). */
export function searchWords(text: string): string[] {
  return foldText(text).match(patterns().word) ?? [];
}
