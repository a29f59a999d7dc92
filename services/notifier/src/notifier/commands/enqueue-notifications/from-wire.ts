import { affectsFromWire } from '@openq/contracts';
import type { EntityManager } from 'typeorm';
import type { GateRescueParked, GateResumed, QuestionAnswered, QuestionDeclared } from '@openq/contracts';
import type { NotifierFact } from '../../domain/recipients';
import { saveQuestion, type DeclaredQuestion } from '../../store/questions.store';

/*
 * The edge (issue #31): the events the notifier hears, as published (the wire's words), mapped to
 * the domain's own facts. Nothing past this file reads `pergunta`, `afeta` or `viaAgente`.
 */

/** A fact as it arrives on its consumer. */
export type WireFact =
  | { type: 'question.declared'; data: QuestionDeclared }
  | { type: 'question.answered'; data: QuestionAnswered }
  | { type: 'gate.rescue_parked'; data: GateRescueParked }
  | { type: 'gate.resumed'; data: GateResumed };

export function declaredFromWire(d: QuestionDeclared): DeclaredQuestion {
  return {
    questionId: d.questionId,
    sessionAuthorId: d.sessionAuthorId,
    askedBy: d.autor,
    question: d.pergunta,
    suggestion: d.sugestao ?? null,
    affects: affectsFromWire(d.afeta),
    origin: d.origin,
    declaredAt: d.declaredAt,
  };
}

export function factFromWire(fact: WireFact): NotifierFact {
  switch (fact.type) {
    case 'question.declared':
      return { type: fact.type, data: declaredFromWire(fact.data) };
    case 'question.answered': {
      const { data } = fact;
      return {
        type: fact.type,
        data: {
          questionId: data.questionId,
          answer: data.resposta,
          respondent: data.respondidaPor,
          viaAgent: data.viaAgente ?? null,
        },
      };
    }
    case 'gate.rescue_parked': {
      const { taskId, gate, reason, questionIds } = fact.data;
      return { type: fact.type, data: { taskId, gate, reason, questionIds } };
    }
    case 'gate.resumed': {
      const { taskId, gate, trigger, questionIds, withdrawnQuestionIds } = fact.data;
      return {
        type: fact.type,
        data: {
          taskId,
          gate,
          trigger,
          questionIds,
          ...(withdrawnQuestionIds !== undefined ? { withdrawnQuestionIds } : {}),
        },
      };
    }
  }
}

/** Keeps what the notifier needs of a declared question, as it was published (a redelivery changes nothing). */
export function saveDeclaredQuestion(
  m: EntityManager,
  projectId: string,
  d: QuestionDeclared,
): Promise<void> {
  return saveQuestion(m, projectId, declaredFromWire(d));
}
