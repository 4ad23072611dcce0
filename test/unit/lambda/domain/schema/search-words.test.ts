import { describe, expect, it } from '@jest/globals';
import { foldText, searchWords } from '../../../../../lambda/domain/schema/search-words';

describe('the words search matches (docs/api.md#matching-words)', () => {
  it.each([
    ['Mühəndis', ['muhendis']],
    ['MÜHƏNDİS', ['muhendis']],
    ['Bakı', ['baki']],
    ['BAKI', ['baki']],
    ['İnsan resursları', ['insan', 'resurslari']],
    ['Şəki', ['seki']],
    ['Gəncə', ['gence']],
    ['Xırdalan', ['xirdalan']],
    ['Sumqayıt', ['sumqayit']],
    ['Çağırış Ödənişi', ['cagiris', 'odenisi']],
    // I, İ and ı all fold to i, whatever the text's language.
    ['I İ ı i', ['i', 'i', 'i', 'i']],
    ['IT İT ıt', ['it', 'it', 'it']],
    ['Senior Back-end Engineer (m/w/d)', ['senior', 'back', 'end', 'engineer', 'm', 'w', 'd']],
    ['Crème brûlée, naïve café', ['creme', 'brulee', 'naive', 'cafe']],
    ['Łódź Øresund', ['lodz', 'oresund']],
    ['C++ / .NET 8, 2026', ['c', 'net', '8', '2026']],
    // Decomposed input folds as the composed one does.
    ['Mu\u0308he\u0301ndis', ['muhendis']],
    ['   ', []],
    ['—/—', []],
  ])('%p → %p', (text, words) => {
    expect(searchWords(text)).toEqual(words);
  });

  it("leaves other scripts' letters and marks as they are (only Latin letters lose their marks)", () => {
    expect(searchWords('Программист й')).toEqual(['программист', foldText('й')]);
    expect(foldText('й')).toBe('й'.normalize('NFD'));
  });
});
