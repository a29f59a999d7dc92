import { ENGINE_REASONS, EngineReason, refusal, type Refusal } from '@openq/contracts';

/** 404 `inscricao_nao_encontrada`: the engine has no subscription. */
export const engineNotFound = (engineId: string): Refusal =>
  refusal(
    ENGINE_REASONS.inscricao_nao_encontrada.status,
    EngineReason.subscriptionNotFound,
    `engine ${engineId} has no subscription`,
  );
