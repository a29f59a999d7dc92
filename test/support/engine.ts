import { OpenqHttpClient, type DeclareQuestionRequest } from '@openq/agent-sdk';
import { DEV_SERVICE_TOKEN } from '@openq/platform';

/** What a spec says of a declaration: any field of the SDK's request, `afeta` in part. */
export type Declaration = Partial<Omit<DeclareQuestionRequest, 'afeta'>> & {
  afeta?: Partial<DeclareQuestionRequest['afeta']>;
};

let toolCalls = 0;

/**
 * The engine of an end-to-end test: the agent SDK's own HTTP client (what a real engine uses) on
 * the stack's gateway with the service token, plus defaults for every field a spec does not care
 * about — session `s1` of `ana`, asked by the PO, a numbered question (never the same question
 * twice, SPEC §12.3), no suggestion, affecting nothing, a fresh `toolCallId`. A refusal throws the SDK's `OpenqApiError` (status, reason).
 */
export class TestEngine {
  readonly client: OpenqHttpClient;

  constructor(baseUrl: string, serviceToken = DEV_SERVICE_TOKEN) {
    // No retries: a 5xx in a test is a failure to see, not to hide.
    this.client = new OpenqHttpClient({ baseUrl, serviceToken, retries: 0 });
  }

  /** The request body the defaults and `fields` make. */
  static body(fields: Declaration = {}): DeclareQuestionRequest {
    const { afeta, ...rest } = fields;
    toolCalls += 1;
    return {
      sessionId: 's1',
      sessionAuthorId: 'ana',
      autor: 'po',
      // Numbered: §12.3 would join two declarations of one text in a project (ask once).
      pergunta: `Which currency do prices use? (${toolCalls})`,
      sugestao: null,
      toolCallId: `tc-${toolCalls}-${Date.now()}`,
      ...rest,
      afeta: {
        regras: afeta?.regras ?? [],
        historias: afeta?.historias ?? [],
        tarefas: afeta?.tarefas ?? [],
      },
    };
  }

  /** Declares a question (HTTP 201 or, for a known `toolCallId`, 200); returns its id. */
  async declare(projectId: string, fields: Declaration = {}): Promise<string> {
    return (await this.client.declare(projectId, TestEngine.body(fields))).questionId;
  }
}
