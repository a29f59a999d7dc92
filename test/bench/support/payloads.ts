/**
 * Realistic payloads: the sizes and shapes of openq's own events (a declare_open_question call,
 * a QA round with a needs_user_decision verdict), so the floor moves the same bytes as openq.
 */
export const BENCH_USER = 'ana';

/**
 * A number of the run's tag, for the question's text: ask once (§12.3) joins a declaration to an
 * open question of the same words, and "other numbers" tells two apart — so each run's i-th
 * declaration is a question of its own, not a join to the previous run's.
 */
export function tagNumber(tag: string): number {
  let h = 5381;
  for (let k = 0; k < tag.length; k++) h = ((h * 33) ^ tag.charCodeAt(k)) >>> 0;
  return h;
}

export function declareData(i: number, tag: string) {
  return {
    sessionId: `sess-${tag}-${i % 97}`,
    sessionAuthorId: BENCH_USER,
    autor: (['criativo', 'po', 'arquiteto', 'dev_lead'] as const)[i % 4],
    pergunta: `Should GET /codes/:codigo return 404 or 410 for an archived code, and must the response carry the archive date (case ${i} of batch ${tagNumber(tag)})?`,
    sugestao: '410 Gone with the archive date in the body',
    afeta: { regras: [`RN-${i % 13}`, 'RN-42'], historias: [`H-${i % 29}`], tarefas: [`T-${i % 31}`] },
    toolCallId: `toolu_bench_${tag}_${i}`,
  };
}

export function gateStartedData(taskId: string) {
  return {
    taskId,
    gate: 'qa' as const,
    sessionId: `sess-exec-${taskId}`,
    sessionAuthorId: BENCH_USER,
    maxCorrections: 3,
  };
}

export function verdictData(taskId: string, roundId: string) {
  return {
    roundId,
    taskId,
    gate: 'qa' as const,
    sessionId: `sess-exec-${taskId}`,
    sessionAuthorId: BENCH_USER,
    verdicts: [
      {
        subspecialty: 'functional',
        veredito: 'approved' as const,
        resumo: 'All acceptance criteria pass',
        itens: [],
      },
      {
        subspecialty: 'contract',
        veredito: 'needs_user_decision' as const,
        resumo: 'GET /:codigo for archived codes is not confirmed by the user',
        itens: ['DoR says "not confirmed by the user"'],
        pergunta: `Archived code on ${taskId}: 404 or 410?`,
        sugestao: '410',
      },
    ],
    maxCorrections: 3,
  };
}
