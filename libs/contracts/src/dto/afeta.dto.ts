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

/** §3.1 what a question (and its decision) affects, in the domains' words (the wire's `afeta`). */
export interface Affects {
  rules: string[];
  stories: string[];
  tasks: string[];
}

/** The wire's `afeta` in the domains' words. */
export function affectsFromWire({ regras, historias, tarefas }: Afeta): Affects {
  return { rules: regras, stories: historias, tasks: tarefas };
}

/** What a domain says a question affects, in the wire's words (`afeta`; the same key order). */
export function affectsToWire({ rules, stories, tasks }: Affects): Afeta {
  return { regras: rules, historias: stories, tarefas: tasks };
}
