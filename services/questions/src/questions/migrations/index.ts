import { QuestionLog1764470100000 } from './1764470100000-question-log';
import { AnswerKeys1764470500000 } from './1764470500000-answer-keys';
import { QuestionWithdrawn1764490000000 } from './1764490000000-question-withdrawn';
import { DecisionSuperseded1764495000000 } from './1764495000000-decision-superseded';
import { QuestionSearch1764500000000 } from './1764500000000-question-search';
import { DelegationLog1764510000000 } from './1764510000000-delegation-log';
import { ProjectPolicyLog1764520000000 } from './1764520000000-project-policy-log';
import { AskOnce1764530000000 } from './1764530000000-ask-once';
import { AskBandsV21764540000000 } from './1764540000000-ask-bands-v2';
import { AskBandsNumbers1764550000000 } from './1764550000000-ask-bands-numbers';
import { AskBandsCollateC1764560000000 } from './1764560000000-ask-bands-collate-c';

/** The questions service's schema, in order (the messaging tables' migrations run first, always). */
export const QUESTIONS_MIGRATIONS = [
  QuestionLog1764470100000,
  AnswerKeys1764470500000,
  QuestionWithdrawn1764490000000,
  DecisionSuperseded1764495000000,
  QuestionSearch1764500000000,
  DelegationLog1764510000000,
  ProjectPolicyLog1764520000000,
  AskOnce1764530000000,
  AskBandsV21764540000000,
  AskBandsNumbers1764550000000,
  AskBandsCollateC1764560000000,
];
