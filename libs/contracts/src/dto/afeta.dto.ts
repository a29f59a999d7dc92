import { AFETA_MAX_IDS } from '../limits';
import { IsEntityIdList } from '../validators';

/** §3.1 what a question (and its decision) affects: rule, story and task ids. */
export interface Afeta {
  regras: string[];
  historias: string[];
  tarefas: string[];
}

/**
 * All three arrays are required (send `[]` for "none"). Defaulting an absent array to `[]` would
 * make the wire contract depend on a transform, and the tool schema of `declare_open_question`
 * (libs/agent-sdk) lists them as required, so a producer that omits one has a bug worth seeing.
 */
export class AfetaDto implements Afeta {
  @IsEntityIdList(AFETA_MAX_IDS)
  regras!: string[];

  @IsEntityIdList(AFETA_MAX_IDS)
  historias!: string[];

  @IsEntityIdList(AFETA_MAX_IDS)
  tarefas!: string[];
}
