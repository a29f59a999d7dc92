import { REFUSALS, type Language } from '@openq/contracts';
import { englishLeft, englishOnlyWords } from '@openq/testing';
import { answeredPage, confirmPage, ONE_TAP_WORDS, refusalPage, type LinkQuestion } from './one-tap-pages';

/** Every page a one-tap link shows, with Portuguese data, in `language`. */
function pages(language: Language): [string, string][] {
  const q: LinkQuestion = {
    projectId: 'acme',
    questionId: '0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6b',
    pergunta: 'Arredondar preços para cima ou para o par?',
    sugestao: 'Para cima',
    autor: 'analyst',
    waiting: [
      { gate: 'qa', taskId: 'T-101' },
      { gate: 'secops', taskId: 'T-102' },
      { gate: null, taskId: 'T-103' },
    ],
  };
  const options = {
    confirm: 'c0nf1rm',
    userId: 'ana',
    expiresAt: new Date('2026-12-05T17:00:00Z'),
    canAnswer: true,
    inertReason: null,
  };
  const where = { projectId: q.projectId, questionId: q.questionId };
  return [
    ['confirm', confirmPage(q, options, language)],
    ['confirm, no suggestion', confirmPage({ ...q, sugestao: null }, options, language)],
    [
      'confirm, not theirs',
      confirmPage(q, { ...options, canAnswer: false, inertReason: 'Only bia can.' }, language),
    ],
    [
      'confirm, inert by code',
      confirmPage(q, { ...options, canAnswer: false, inertReason: 'pergunta_retirada' }, language),
    ],
    ['confirm, inert', confirmPage(q, { ...options, canAnswer: false }, language)],
    ['answered', answeredPage(q, 'Para cima', language)],
    ...[...Object.keys(ONE_TAP_WORDS.en.titles), 'servico_indisponivel', 'sem_sugestao'].map(
      (reason): [string, string] => [
        `refused ${reason}`,
        refusalPage(reason, 'an English message', where, language),
      ],
    ),
  ];
}

const ONE_TAP_REASONS = [
  ...Object.keys(ONE_TAP_WORDS.en.titles),
  'servico_indisponivel',
  'sem_sugestao',
] as const;
const sentences = (language: Language) =>
  ONE_TAP_REASONS.map((r) => REFUSALS[r as keyof typeof REFUSALS][language]);

const ENGLISH_ONLY = englishOnlyWords(
  [ONE_TAP_WORDS.en, sentences('en')],
  [ONE_TAP_WORDS['pt-BR'], sentences('pt-BR')],
  ['openq', 'QA', 'SecOps', 'link', 'gate', 'UTC'],
);

describe('the one-tap pages in the recipient’s language (issue #30)', () => {
  it('knows English words to look for', () => {
    expect(ENGLISH_ONLY.size).toBeGreaterThan(40);
  });

  it.each(pages('pt-BR'))('say %s in pt-BR with no English word of the en dictionary', (_name, html) => {
    expect(englishLeft(html, ENGLISH_ONLY)).toEqual([]);
    expect(html).toContain('<html lang="pt-BR">');
  });

  it('name the gates and the agent in Portuguese, and the refusal in the catalog’s words', () => {
    const [, confirm] = pages('pt-BR')[0]!;
    expect(confirm).toContain('Gate de QA em T-101');
    expect(confirm).toContain('Pergunta de Analista');
    const expired = refusalPage('link_expirado', 'this link has expired', null, 'pt-BR');
    expect(expired).toContain(REFUSALS.link_expirado['pt-BR']);
  });

  it('still say English to an English reader (so the check above can fail)', () => {
    for (const [name, html] of pages('en'))
      expect({ name, left: englishLeft(html, ENGLISH_ONLY).length > 0 }).toEqual({ name, left: true });
  });
});
