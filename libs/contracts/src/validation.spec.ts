import { AgentAnswerBody } from './http';
import { MAX_NESTING, validateAs } from './validation';

const nested = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) as object;

describe('validateAs', () => {
  it('refuses a body nested thousands of levels deep with its reason instead of overflowing the stack', () => {
    for (const depth of [MAX_NESTING + 1, 3000, 20_000]) {
      expect(validateAs(AgentAnswerBody, nested(depth))).toEqual({
        ok: false,
        reason: 'corpo_invalido',
        field: '(body)',
        message: `nested deeper than ${MAX_NESTING} levels`,
      });
      expect(
        validateAs(AgentAnswerBody, { viaAgente: 'po', extra: nested(depth) }, 'payload_invalido'),
      ).toMatchObject({ ok: false, reason: 'payload_invalido', field: '(body)' });
    }
  });

  it('still names the failing field of a shallow body', () => {
    expect(validateAs(AgentAnswerBody, nested(MAX_NESTING))).toMatchObject({ ok: false, field: 'a' });
    expect(validateAs(AgentAnswerBody, { viaAgente: 'po', resposta: ' sim ' })).toMatchObject({
      ok: true,
      value: { viaAgente: 'po', resposta: 'sim' },
    });
  });

  it('refuses a value of a class with no rules as the body, not with an exception', () => {
    class NoRules {}
    for (const plain of [{}, { a: 1 }])
      expect(validateAs(NoRules, plain)).toMatchObject({
        ok: false,
        reason: 'corpo_invalido',
        field: '(body)',
      });
  });
});

describe('text PostgreSQL can store', () => {
  it.each([
    ['a NUL character', 'Which one?\u0000'],
    ['a lone high surrogate', 'broken \ud800 text'],
    ['a lone low surrogate', '\udc00'],
  ])('refuses %s in a text field', (_what, resposta) => {
    expect(validateAs(AgentAnswerBody, { viaAgente: 'po', resposta })).toEqual({
      ok: false,
      reason: 'corpo_invalido',
      field: 'resposta',
      message: 'resposta: resposta must not contain NUL characters or unpaired surrogates',
    });
  });

  it('accepts any well-formed unicode', () => {
    expect(validateAs(AgentAnswerBody, { viaAgente: 'po', resposta: 'sim 😀 ü 中文 \u200b' })).toMatchObject({
      ok: true,
    });
  });
});
