import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuthenticatedUser } from './roles';
import type { RequestWithUser } from './user-auth.guard';

/** The caller of a user route, as the user guard authenticated it. */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedUser => {
    const user = context.switchToHttp().getRequest<RequestWithUser>().user;
    if (!user) throw new Error('CurrentUser used on a route the user guard did not authenticate');
    return user;
  },
);
