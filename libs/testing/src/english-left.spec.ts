import { englishLeft, wordsOf } from './english-left';

describe('english-left: the words a rendered text says', () => {
  it('reads no word out of an id, a hash or a number, and still reads the words around them', () => {
    const words = wordsOf('Pergunta 3f2dec1a-77ad-4dec-9add-0c1e2b3a4d5f da T-1, em 2026: respondida');
    expect([...words].sort()).toEqual(['da', 'em', 'pergunta', 'respondida']);
  });

  it('finds an English month among Portuguese words, but not the same letters inside an id', () => {
    const months = new Set(['dec', 'add']);
    expect(englishLeft('Respondida em 5 Dec, 10:00', months)).toEqual(['dec']);
    expect(englishLeft('Respondida: 8d1e-dec0 (a9add3)', months)).toEqual([]);
  });
});
