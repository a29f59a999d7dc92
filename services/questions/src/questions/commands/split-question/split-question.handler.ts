import type { DataSource } from 'typeorm';
import { isRefusal, newId, type Refusal, type SplitQuestionCommand } from '@openq/contracts';
import { withOutbox } from '@openq/messaging';
import { lockedBatch } from '../../questions-transaction';
import { lockAskers } from '../../store/ask-once.store';

/**
 * §12.3 the session author splits a wrong join: under the project's declaration lock and the
 * question's lock, `question.split` on the joined question, then the split asker's own question,
 * declared from what it asked (`question.joined`'s `asked`) under its own tool call — so a retry of
 * that tool call now finds its own question. Both in one transaction, through the decider kit.
 */
export async function splitQuestion(
  dataSource: DataSource,
  cmd: SplitQuestionCommand,
  now: Date,
): Promise<{ questionId: string } | Refusal> {
  return withOutbox(dataSource, {}, async (manager, outbox) => {
    await lockAskers(manager, [cmd.projectId]);
    const { batch } = await lockedBatch(manager, outbox, [cmd.questionId]);
    const joined = batch.stateOf(cmd.questionId)?.joined.find((j) => j.asker.toolCallId === cmd.toolCallId);
    const newQuestionId = newId();
    const split = batch.decide(
      cmd.questionId,
      {
        type: 'split',
        projectId: cmd.projectId,
        userId: cmd.userId,
        toolCallId: cmd.toolCallId,
        newQuestionId,
      },
      now,
      outbox,
    );
    if (isRefusal(split)) return split;
    const { asker, asked } = joined!;
    const declared = batch.decide(
      newQuestionId,
      {
        type: 'declare',
        projectId: cmd.projectId,
        questionId: newQuestionId,
        declaration: {
          ...asked,
          askedBy: asker.role,
          sessionId: asker.sessionId,
          toolCallId: asker.toolCallId,
          origin: 'tool',
        },
      },
      now,
      outbox,
    );
    if (isRefusal(declared)) throw new Error(`a split's question was refused: ${declared.reason}`);
    await batch.commit();
    return { questionId: newQuestionId };
  });
}
