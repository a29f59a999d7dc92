import { QuestionsCommand } from '@openq/contracts';
import type { RpcHeaders } from '../http/rpc-headers.decorator';
import type { ServicesClient } from '../http/services-client';

/**
 * §12.1 the session authors `userId` may answer for now (their live grants while the project's
 * delegation is on), from the policy's owner, for a personal `waitingForYou`. A read: when the
 * questions service cannot say, the caller still sees what waits for them as the session's author
 * (no one's delegate), rather than no gates at all.
 */
export async function answersForOf(
  services: ServicesClient,
  projectId: string,
  userId: string,
  headers: RpcHeaders,
): Promise<string[]> {
  try {
    return (await services.ask(QuestionsCommand.policiesGet, { projectId, userId }, headers)).answersFor;
  } catch {
    return [];
  }
}
