import { pickRefusals, type RefusalReason, type ReasonWords } from './refusals';

export type { ReasonWords } from './refusals';

/**
 * [openq] issue #27 (SPEC §12.2) the reason codes of the edge and of outbound requests. Their
 * status and words live in the one catalog (refusals.ts, issue #30); this is their group.
 */
export const EDGE_REASONS = pickRefusals(
  'destino_nao_permitido',
  'origem_nao_confiavel',
  'muitas_requisicoes',
);

/** A table's words in one language, by code (the inbox's dictionaries are built from these). */
export function wordsIn<Code extends string>(
  table: Readonly<Record<Code, ReasonWords>>,
  language: keyof ReasonWords,
): Record<Code, string> {
  return Object.fromEntries(
    Object.entries<ReasonWords>(table).map(([code, words]) => [code, words[language]]),
  ) as Record<Code, string>;
}
export type EdgeReason = keyof typeof EDGE_REASONS;

/** The code of each refusal, by name (no string literals in the services). */
export const EdgeReason = {
  targetNotAllowed: 'destino_nao_permitido',
  untrustedOrigin: 'origem_nao_confiavel',
  tooManyRequests: 'muitas_requisicoes',
} as const satisfies Record<string, EdgeReason & RefusalReason>;

/**
 * §12.2 why a delivery failed, as the API shows it (`lastError` of a delivery): a class, never the
 * detail — which address answered what stays in the operator's log. A class, not a free text, so
 * the delivery log cannot be read as a port scanner.
 */
export const DELIVERY_FAILURE_CLASSES = [
  'destino_nao_permitido',
  'conexao_recusada',
  'tempo_esgotado',
  'tls_invalido',
  'http_4xx',
  'http_5xx',
  'resposta_invalida',
  'inscricao_removida',
] as const;
export type DeliveryFailureClass = (typeof DELIVERY_FAILURE_CLASSES)[number];

/** The words of each delivery failure class (the inbox's delivery log says them). */
export const DELIVERY_FAILURE_WORDS: Readonly<Record<DeliveryFailureClass, ReasonWords>> = {
  destino_nao_permitido: {
    en: 'the address is not public and the operator does not allow it',
    'pt-BR': 'o endereço não é público e o operador não o permite',
  },
  conexao_recusada: {
    en: 'no connection could be made to the address',
    'pt-BR': 'não foi possível conectar ao endereço',
  },
  tempo_esgotado: {
    en: 'the address did not answer in time',
    'pt-BR': 'o endereço não respondeu a tempo',
  },
  tls_invalido: {
    en: 'the address’s TLS certificate is not valid',
    'pt-BR': 'o certificado TLS do endereço não é válido',
  },
  http_4xx: {
    en: 'the address refused the message (HTTP 4xx)',
    'pt-BR': 'o endereço recusou a mensagem (HTTP 4xx)',
  },
  http_5xx: {
    en: 'the address failed (HTTP 5xx)',
    'pt-BR': 'o endereço falhou (HTTP 5xx)',
  },
  resposta_invalida: {
    en: 'the address gave an answer openq does not accept (a redirect, or no HTTP)',
    'pt-BR': 'o endereço deu uma resposta que o openq não aceita (um redirecionamento, ou não HTTP)',
  },
  inscricao_removida: {
    en: 'the engine’s subscription was removed before the event was sent',
    'pt-BR': 'a inscrição do engine foi removida antes do envio do evento',
  },
};

export function isDeliveryFailureClass(value: unknown): value is DeliveryFailureClass {
  return typeof value === 'string' && (DELIVERY_FAILURE_CLASSES as readonly string[]).includes(value);
}
