import { isRefusal, refusal } from '@openq/contracts';
import { isRetryLater } from '@openq/messaging';
import type { QuestionRequest } from '../../domain/gate-cycle';
import { DeclaredBefore } from './prepare-verdict';

const Q1 = '01890a5d-ac96-774b-bcce-b302099a8057';
const Q2 = '01890a5d-ac96-774b-bcce-b302099a8058';

const request = (...keys: string[]): QuestionRequest => ({
  roundId: 'r1',
  sessionAuthorId: 'ana',
  role: 'qa-agent',
  origin: 'qa_verdict',
  affects: { rules: [], stories: [], tasks: ['T1'] },
  declare: keys.map((key) => ({ key, subspecialty: key.split(':')[1]!, question: 'A?', suggestion: null })),
  link: [],
});

describe('DeclaredBefore: the questions declared before the verdict’s transaction', () => {
  it('gives the ids in the order the locked decision asks for them', () => {
    const declared = new DeclaredBefore({ ids: { 'r1:rules': Q1, 'r1:api': Q2 } });
    expect(declared.idsOf(request('r1:api', 'r1:rules'))).toEqual([Q2, Q1]);
  });

  it('needs nothing for a round that asks no new question', () => {
    expect(new DeclaredBefore(null).idsOf(request())).toEqual([]);
  });

  it('hands back the refusal of the questions service when the questions are still needed', () => {
    const refused = new DeclaredBefore({ refusal: refusal(400, 'pergunta_invalida', 'too long') });
    const outcome = refused.idsOf(request('r1:rules'));
    expect(isRefusal(outcome) && outcome.reason).toBe('pergunta_invalida');
  });

  it('retries the message when the locked decision asks for a question not declared before', () => {
    const declared = new DeclaredBefore({ ids: { 'r1:rules': Q1 } });
    let error: unknown = null;
    try {
      declared.idsOf(request('r1:rules', 'r1:api'));
    } catch (e) {
      error = e;
    }
    expect(isRetryLater(error)).toBe(true);
    expect(String(error)).toContain('r1:api');
    expect(() => new DeclaredBefore(null).idsOf(request('r1:rules'))).toThrow(/not declared before/);
  });
});
