import { MAX_BLOCK_CHARS, renderDecisionsBlock } from './decisions-block';
import { charLength } from './text';
import { TAILS, atCeiling, english, portuguese, tokenCounter } from './__fixtures__/decision-texts';

let countTokens: (text: string) => number;
beforeAll(async () => {
  countTokens = await tokenCounter();
});

describe('decisions block token cost (ADR 0214: up to ~400 tokens)', () => {
  it.each([
    ['English', english, TAILS.English],
    ['Portuguese', portuguese, TAILS.Portuguese],
  ])(
    'at its ceiling (10 long decisions, 1,500 characters) stays within 400 tokens: %s',
    (_language, texts, tail) => {
      const block = renderDecisionsBlock(atCeiling(texts, tail));
      const chars = charLength(block.text);
      const tokens = countTokens(block.text);
      console.log(
        `${_language}: ${chars} characters, ${block.shown.length} of ${block.total} decisions, ${tokens} cl100k_base tokens`,
      );
      expect(chars).toBeLessThanOrEqual(MAX_BLOCK_CHARS);
      expect(chars).toBeGreaterThan(MAX_BLOCK_CHARS - 200);
      expect(block.shown.length).toBeLessThan(block.total);
      expect(tokens).toBeLessThanOrEqual(400);
    },
  );
});
