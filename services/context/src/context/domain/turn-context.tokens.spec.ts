import { DECISIONS_HEADING, MAX_BLOCK_CHARS } from './decisions-block';
import { charLength } from './text';
import { buildTurnContext } from './turn-context';
import { TAILS, atCeiling, english, portuguese, tokenCounter } from './__fixtures__/decision-texts';

let countTokens: (text: string) => number;
beforeAll(async () => {
  countTokens = await tokenCounter();
});

/** The decisions block of a turn's text: from the heading to the end. */
function decisionsBlockOf(text: string): string {
  const at = text.indexOf(`\n\n${DECISIONS_HEADING}`);
  expect(at).toBeGreaterThan(0);
  return text.slice(at + 2);
}

describe("the askers' turn: decisions block token cost (ADR 0214 §8, SPEC §11.2: up to ~400 tokens)", () => {
  it.each([
    ['English', english, TAILS.English],
    ['Portuguese', portuguese, TAILS.Portuguese],
  ])(
    'at its ceiling (the 10 newest of 25 long decisions, 1,500 characters) stays within 400 tokens: %s',
    (language, texts, tail) => {
      const turn = buildTurnContext('po', [], 0, { newest: atCeiling(texts, tail), total: 25 });
      const block = decisionsBlockOf(turn.text);
      const chars = charLength(block);
      const tokens = countTokens(block);
      console.log(
        `turn, ${language}: ${chars} characters, ${turn.decisoes.length} of ${turn.decisoesTotal} decisions, ${tokens} cl100k_base tokens`,
      );
      expect(chars).toBeLessThanOrEqual(MAX_BLOCK_CHARS);
      expect(chars).toBeGreaterThan(MAX_BLOCK_CHARS - 200);
      expect(block.endsWith(`showing ${turn.decisoes.length} of 25`)).toBe(true);
      expect(tokens).toBeLessThanOrEqual(400);
    },
  );

  it('costs a turn with no decision yet little: the heading and one line', () => {
    const block = decisionsBlockOf(buildTurnContext('po', []).text);
    const tokens = countTokens(block);
    console.log(`turn, no decisions: ${charLength(block)} characters, ${tokens} cl100k_base tokens`);
    expect(tokens).toBeLessThanOrEqual(25);
  });
});
