import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  ACROSS_PROJECTS_MAX,
  GatesCommand,
  ListMyQuestionsQuery,
  QuestionsCommand,
  type BlockingQuestionsReply,
  type QuestionListReply,
} from '@openq/contracts';
import { CurrentIdentity } from '../auth/current-user.decorator';
import { AcrossProjects, MinRole } from '../auth/route-access';
import type { UserIdentity } from '../auth/roles';
import { UserApi } from '../http/api-docs.decorators';
import { httpError, Reason } from '../http/http-error';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { ServicesClient } from '../http/services-client';
import { filtersOf, mergeBlocking, withBlocking } from './blocking-order';

/**
 * [openq] issue #18 one inbox across projects: the caller's questions in every project where the
 * token's `roles` claim gives them a role (the first `ACROSS_PROJECTS_MAX` by id), with the
 * project list's filters, order and paging. The projects come from the token alone, so a project
 * the caller has no role on is never asked about.
 */
@UserApi('open questions')
@Controller('me/open-questions')
export class MyQuestionsController {
  constructor(private readonly services: ServicesClient) {}

  @Get()
  @MinRole('viewer')
  @AcrossProjects()
  @ApiOperation({
    summary:
      'Your questions in every project where your token gives you a role (issue #18), each with its projectId: ' +
      'the filters, order (blocking most first), cursor paging and total of GET /projects/:projectId/open-questions; ' +
      'project= narrows to one of them (403 sem_papel_no_projeto for another). At most ' +
      `${ACROSS_PROJECTS_MAX} projects (by id) are read`,
  })
  async list(
    @Query() query: ListMyQuestionsQuery,
    @CurrentIdentity() identity: UserIdentity,
    @CallHeaders() headers: RpcHeaders,
  ): Promise<QuestionListReply> {
    const { status, limit, cursor, sort, project } = query;
    if (project !== undefined && !identity.roles.has(project))
      throw httpError(403, Reason.noRoleOnProject, `you have no role on project ${project}`);
    const projectIds =
      project !== undefined ? [project] : [...identity.roles.keys()].sort().slice(0, ACROSS_PROJECTS_MAX);
    if (projectIds.length === 0)
      return { items: [], total: 0, limit, nextCursor: null, counts: { mine: 0, others: 0 }, sort: 'oldest' };
    const base = {
      projectIds,
      userId: identity.id,
      status,
      limit,
      ...(cursor ? { cursor } : {}),
      ...filtersOf(query),
    };
    const blockingAsked = sort === 'blocking' && status === 'open';
    const blocking =
      status === 'open' || status === 'all'
        ? mergeBlocking(
            await Promise.all(
              projectIds.map((projectId) =>
                this.services
                  .ask(GatesCommand.blocking, { projectId }, headers)
                  .catch((): BlockingQuestionsReply | null => null),
              ),
            ),
          )
        : null;
    const first = blockingAsked && blocking ? blocking.items.map((b) => b.questionId) : [];
    const reply = await this.services.ask(
      QuestionsCommand.listAcross,
      first.length > 0 ? { ...base, first } : base,
      headers,
    );
    return withBlocking(reply, blocking, blockingAsked);
  }
}
