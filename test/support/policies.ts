import type { ProjectPolicies } from '@openq/contracts';
import type { Stack } from './stack';

/** The maintainer who sets the project's policies in the end-to-end specs. */
export const POLICY_MAINTAINER = 'mia';

/**
 * §12.1 a maintainer turns project policies on or off (the seeds' rules are the default): a spec
 * that exercises delegation or the override turns it on first, as a project would.
 */
export async function setPolicies(
  stack: Stack,
  projectId: string,
  policies: Partial<ProjectPolicies>,
  motivo = 'the team decided to allow it for this project',
): Promise<ProjectPolicies> {
  const reply = await stack.http('PUT', `/projects/${projectId}/policies`, {
    token: stack.token(POLICY_MAINTAINER, projectId, 'maintainer'),
    body: { ...policies, motivo },
  });
  if (reply.status !== 200) throw new Error(`PUT policies: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body as ProjectPolicies;
}
