import { newId, QuestionsCommand, type QuestionCountReply } from '@openq/contracts';
import type { RpcClient } from '@openq/messaging';
import { CORRELATION_HEADER } from '@openq/platform';

/**
 * `questions.count` for the `open_count` event. Every stream of a project asks after the same
 * question event (same `stamp`), so concurrent asks share one request: one per event per
 * gateway process, however many browsers watch the project.
 */
export class OpenCounts {
  private readonly inFlight = new Map<string, Promise<number | null>>();

  constructor(private readonly rpc: RpcClient) {}

  /** The open count as of stream sequence `stamp` or later; `null` when the service does not answer. */
  get(projectId: string, stamp: number): Promise<number | null> {
    const key = `${projectId}#${stamp}`;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.fetch(projectId).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async fetch(projectId: string): Promise<number | null> {
    const { service, verb } = QuestionsCommand.count;
    const reply = await this.rpc.request<QuestionCountReply>(
      service,
      verb,
      { projectId },
      { headers: { [CORRELATION_HEADER]: newId() } },
    );
    return reply.ok && Number.isInteger(reply.data.open) ? reply.data.open : null;
  }
}
