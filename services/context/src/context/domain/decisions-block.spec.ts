import fc from 'fast-check';
import type { DecisionView } from './decision-selection';
import {
  DECISIONS_HEADING,
  MAX_BLOCK_CHARS,
  MAX_DECISIONS,
  NO_DECISIONS_LINE,
  renderDecisionsBlock,
} from './decisions-block';
import { charLength } from './text';

function view(i: number, resposta = `answer ${i}`, pergunta = `question ${i}?`): DecisionView {
  const n = String(i).padStart(12, '0');
  return {
    decisionEventId: `0190a000-0000-7000-8000-${n}`,
    questionId: `0190b000-0000-7000-8000-${n}`,
    pergunta,
    resposta,
    respondidaPor: 'u1',
    viaAgente: null,
    decidedAt: '2026-11-05T10:00:00.000Z',
  };
}
const views = (count: number, resposta?: (i: number) => string): DecisionView[] =>
  Array.from({ length: count }, (_, i) => view(i + 1, resposta?.(i + 1)));
const lastLine = (text: string): string | undefined => text.split('\n').at(-1);

describe('renderDecisionsBlock', () => {
  it('opens with the exact heading and renders one line per decision', () => {
    const { text, shown, total } = renderDecisionsBlock([view(1, 'Keep\n  codes   numeric')]);
    expect(text).toBe(
      `User decisions — they win over FR/DoR when they conflict\n- question 1? → Keep codes numeric`,
    );
    expect(DECISIONS_HEADING).toBe('User decisions — they win over FR/DoR when they conflict');
    expect([shown.length, total]).toEqual([1, 1]);
  });

  it('with no decisions says so under the heading', () => {
    expect(renderDecisionsBlock([])).toEqual({
      text: `${DECISIONS_HEADING}\n${NO_DECISIONS_LINE}`,
      shown: [],
      total: 0,
    });
  });

  it('takes the caller’s own "none" line and a total larger than what it passed (cut in SQL)', () => {
    expect(renderDecisionsBlock([], { none: 'Nothing decided yet.' }).text).toBe(
      `${DECISIONS_HEADING}\nNothing decided yet.`,
    );
    const newest = views(10);
    const cut = renderDecisionsBlock(newest, { total: 14 });
    expect([cut.shown.length, cut.total]).toEqual([10, 14]);
    expect(lastLine(cut.text)).toBe('showing 10 of 14');
    // a total below what was passed is not believed
    expect(renderDecisionsBlock(views(3), { total: 1 }).total).toBe(3);
    expect(renderDecisionsBlock(views(3), { total: 1 }).text).not.toMatch(/showing/);
  });

  it('shows up to 10 decisions and declares nothing when nothing is cut', () => {
    const { text, shown, total } = renderDecisionsBlock(views(10));
    expect([shown.length, total]).toEqual([10, 10]);
    expect(text).not.toMatch(/showing/);
  });

  it('ceiling of 10 decisions: the 10 newest are shown and the cut is declared', () => {
    const all = views(12);
    const { text, shown, total } = renderDecisionsBlock(all);
    expect(shown).toEqual(all.slice(0, MAX_DECISIONS));
    expect(total).toBe(12);
    expect(lastLine(text)).toBe('showing 10 of 12');
  });

  it('ceiling of 1,500 characters: long answers cut the list, whole decisions only, newest kept', () => {
    const all = views(10, (i) => `${i} `.padEnd(400, 'x'));
    const { text, shown, total } = renderDecisionsBlock(all);
    expect(charLength(text)).toBeLessThanOrEqual(MAX_BLOCK_CHARS);
    expect(shown).toEqual(all.slice(0, 3));
    expect(total).toBe(10);
    expect(lastLine(text)).toBe('showing 3 of 10');
    for (const d of shown) expect(text).toContain(d.resposta);
  });

  it('counts the heading and the "showing" line inside the 1,500 characters', () => {
    // Sized so that heading + first decision + "showing 1 of 2" is exactly the ceiling.
    const frame = charLength(`${DECISIONS_HEADING}\n- question 1? → \nshowing 1 of 2`);
    const { text, shown } = renderDecisionsBlock([
      view(1, 'y'.repeat(MAX_BLOCK_CHARS - frame)),
      view(2, 'z'),
    ]);
    expect(charLength(text)).toBe(MAX_BLOCK_CHARS);
    expect(shown).toHaveLength(1);
    expect(lastLine(text)).toBe('showing 1 of 2');
  });

  it('a single decision exactly at the ceiling is shown whole; one character more and it is clipped, declared', () => {
    const room = MAX_BLOCK_CHARS - charLength(`${DECISIONS_HEADING}\n- question 1? → `);
    const fits = renderDecisionsBlock([view(1, 'a'.repeat(room))]);
    expect(charLength(fits.text)).toBe(MAX_BLOCK_CHARS);
    expect(fits.text).not.toMatch(/showing/);

    const over = renderDecisionsBlock([view(1, 'a'.repeat(room + 1))]);
    expect(charLength(over.text)).toBeLessThanOrEqual(MAX_BLOCK_CHARS);
    expect(lastLine(over.text)).toBe('showing 1 of 1 (clipped)');
    expect(over.text).toMatch(/a…\n/);
    expect(over.shown).toHaveLength(1);
  });

  it('never exceeds either ceiling, shows a newest-first prefix, and declares every cut', () => {
    const arbitraryViews = fc.array(
      fc.record({
        pergunta: fc.string({ minLength: 1, maxLength: 500 }),
        resposta: fc.string({ unit: 'binary', minLength: 1, maxLength: 2000 }),
      }),
      { maxLength: 25 },
    );
    fc.assert(
      fc.property(arbitraryViews, (texts) => {
        const all = texts.map((t, i) => view(i + 1, t.resposta, t.pergunta));
        const { text, shown, total } = renderDecisionsBlock(all);
        expect(charLength(text)).toBeLessThanOrEqual(MAX_BLOCK_CHARS);
        expect(shown.length).toBeLessThanOrEqual(MAX_DECISIONS);
        expect(shown).toEqual(all.slice(0, shown.length));
        expect(total).toBe(all.length);
        expect(text.startsWith(`${DECISIONS_HEADING}\n`)).toBe(true);
        if (total > 0) expect(shown.length).toBeGreaterThan(0);
        const declared = /^showing (\d+) of (\d+)( \(clipped\))?$/.exec(lastLine(text) ?? '');
        if (shown.length < total || text.includes('…\nshowing')) {
          expect(declared?.slice(1, 3)).toEqual([String(shown.length), String(total)]);
        } else {
          expect(declared).toBeNull();
        }
      }),
    );
  });
});
