import type { AgentQaVerdictDto } from '@openq/contracts';
import type { SubspecialtyVerdict } from '../../domain/gate-cycle';

/** A round's verdicts as the domain reads them: `agent.qa.verdict`'s wire words (SPEC §8) in English. */
export function roundVerdicts(verdict: Pick<AgentQaVerdictDto, 'verdicts'>): SubspecialtyVerdict[] {
  return verdict.verdicts.map((v) => ({
    subspecialty: v.subspecialty,
    verdict: v.veredito,
    summary: v.resumo,
    items: v.itens,
    question: v.pergunta,
    suggestion: v.sugestao,
    openQuestionId: v.openQuestionId,
  }));
}
