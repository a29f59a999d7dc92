import { IsNumber, Max, Min } from 'class-validator';
import { PERGUNTA_MAX_LENGTH, PERGUNTA_MIN_LENGTH, SUGESTAO_MAX_LENGTH } from '../limits';
import { QUESTION_AUTHORS, type QuestionAuthor } from '../vocabulary';
import {
  IsEntityId,
  IsOneOf,
  IsTimestamp,
  IsToolCallId,
  IsUuidString,
  Nested,
  Nullable,
  OptionalTrimmedText,
  TrimmedText,
} from '../validators';
import { AfetaDto } from '../dto/afeta.dto';
import type {
  QuestionAsker,
  QuestionJoined,
  QuestionPrecedentOffered,
  QuestionSplit,
} from './openq-payloads';

/** §12.3 one asker of a question. */
export class QuestionAskerDto implements QuestionAsker {
  @IsOneOf(QUESTION_AUTHORS)
  autor!: QuestionAuthor;

  @IsEntityId()
  sessionId!: string;

  @Nullable()
  @IsToolCallId()
  toolCallId!: string | null;
}

/** §12.3 what a joining asker declared (kept for a split). */
export class JoinedDeclarationDto {
  @IsEntityId()
  sessionAuthorId!: string;

  @TrimmedText(PERGUNTA_MIN_LENGTH, PERGUNTA_MAX_LENGTH)
  pergunta!: string;

  @OptionalTrimmedText(SUGESTAO_MAX_LENGTH)
  sugestao!: string | null;

  @Nested(() => AfetaDto)
  afeta!: AfetaDto;
}

/** A likeness between 0 and 1. */
function Similarity(): PropertyDecorator {
  return (target, key) => {
    IsNumber()(target, key);
    Min(0)(target, key);
    Max(1)(target, key);
  };
}

/** `question.joined` (see `QuestionJoined`). */
export class QuestionJoinedDto implements QuestionJoined {
  @IsUuidString()
  questionId!: string;

  @Nested(() => QuestionAskerDto)
  asker!: QuestionAskerDto;

  @Similarity()
  similarity!: number;

  @Nested(() => JoinedDeclarationDto)
  asked!: JoinedDeclarationDto;

  @IsTimestamp()
  joinedAt!: string;
}

/** `question.precedent_offered` (see `QuestionPrecedentOffered`). */
export class QuestionPrecedentOfferedDto implements QuestionPrecedentOffered {
  @IsUuidString()
  questionId!: string;

  @Nested(() => QuestionAskerDto)
  asker!: QuestionAskerDto;

  @IsUuidString()
  decisionEventId!: string;

  @Similarity()
  similarity!: number;

  @IsTimestamp()
  offeredAt!: string;
}

/** `question.split` (see `QuestionSplit`). */
export class QuestionSplitDto implements QuestionSplit {
  @IsUuidString()
  questionId!: string;

  @IsUuidString()
  newQuestionId!: string;

  @IsEntityId()
  by!: string;

  @IsToolCallId()
  toolCallId!: string;

  @IsTimestamp()
  splitAt!: string;
}
