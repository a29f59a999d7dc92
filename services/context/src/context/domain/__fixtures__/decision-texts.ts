import type { DecisionView } from '../decision-selection';
import { MAX_DECISIONS } from '../decisions-block';

/**
 * What the token-budget specs of the decisions blocks share (ADR 0214 §7–8: about 400 tokens): a
 * `cl100k_base` counter and realistic questions and answers in English and Portuguese, the two
 * languages openq's users write in (Portuguese costs more tokens per character).
 */

/** `cl100k_base` token counter; js-tiktoken ships ESM types only, so CommonJS specs load it through import(). */
export async function tokenCounter(): Promise<(text: string) => number> {
  const { getEncoding } = await import('js-tiktoken');
  const encoding = getEncoding('cl100k_base');
  return (text) => encoding.encode(text).length;
}

export const english: string[][] = [
  [
    'Should GET /:codigo accept codes with lowercase letters?',
    'Yes, normalise to uppercase before the lookup and keep the stored value as typed.',
  ],
  [
    'Is the export limited to the current month or to any chosen range of dates?',
    'Any range, at most 12 months; refuse longer ranges with a clear message.',
  ],
  [
    'May a reviewer edit a ticket after it was approved by the owner?',
    'No. Approved tickets are read-only; changes need a new ticket linked to it.',
  ],
  [
    'Which currency do we show when the account has none configured yet?',
    'Use the project default currency, BRL, and show a hint to configure one.',
  ],
  [
    'Should deleted users still appear in the audit log with their names?',
    'Yes, keep the name as it was at the time of the action, marked as removed.',
  ],
];
export const portuguese: string[][] = [
  [
    'O GET /:codigo deve aceitar códigos com letras minúsculas?',
    'Sim, normalizar para maiúsculas antes da busca e guardar o valor como digitado.',
  ],
  [
    'A exportação fica limitada ao mês corrente ou a qualquer intervalo de datas?',
    'Qualquer intervalo, no máximo 12 meses; recusar intervalos maiores com mensagem clara.',
  ],
  [
    'Um revisor pode editar um chamado depois de aprovado pelo dono do projeto?',
    'Não. Chamados aprovados ficam somente leitura; mudanças pedem um novo chamado.',
  ],
  [
    'Qual moeda mostramos quando a conta ainda não tem nenhuma configurada?',
    'A moeda padrão do projeto, BRL, com uma dica para configurar uma própria.',
  ],
  [
    'Usuários excluídos continuam aparecendo no log de auditoria com os nomes?',
    'Sim, manter o nome da época da ação, marcado como removido do projeto.',
  ],
];

/** Appended to every answer so that the character ceiling, not the count, binds. */
export const TAILS = {
  English: 'This also applies to the admin screens and to the public API of the module.',
  Portuguese: 'Vale também para as telas de administração e para a API pública do módulo.',
} as const;

/** Ten decisions whose rendering is long enough that the character ceiling, not the count, binds. */
export function atCeiling(texts: string[][], tail: string): DecisionView[] {
  return Array.from({ length: MAX_DECISIONS }, (_, i) => {
    const [pergunta, resposta] = texts[i % texts.length] ?? ['', ''];
    const n = String(i + 1).padStart(12, '0');
    return {
      decisionEventId: `0190a000-0000-7000-8000-${n}`,
      questionId: `0190b000-0000-7000-8000-${n}`,
      pergunta: `${pergunta}`,
      resposta: `${resposta} ${tail}`,
      respondidaPor: 'u1',
      viaAgente: 'po',
      decidedAt: `2026-11-${String(20 - i).padStart(2, '0')}T10:00:00.000Z`,
    };
  });
}
