import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuthenticatedUser, UserIdentity } from './roles';
import type { RequestWithUser } from './user-auth.guard';

/** The caller of a user route, as the user guard authenticated it. */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedUser => {
    const user = context.switchToHttp().getRequest<RequestWithUser>().user;
    if (!user) throw new Error('CurrentUser used on a route the user guard did not authenticate');
    return user;
  },
);

/** [openq] issue #18 the caller of an `@AcrossProjects()` route: their id and every role of the token. */
export const CurrentIdentity = createParamDecorator(
  (_data: unknown, context: ExecutionContext): UserIdentity => {
    const identity = context.switchToHttp().getRequest<RequestWithUser>().identity;
    if (!identity) throw new Error('CurrentIdentity used on a route that is not @AcrossProjects()');
    return identity;
  },
);
