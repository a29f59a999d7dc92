import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { COOKIE_SCHEME, SERVICE_TOKEN_SCHEME } from './docs';

/** OpenAPI: a user controller (JWT as bearer or the `openq_token` cookie). */
export const UserApi = (tag: string): ClassDecorator =>
  applyDecorators(ApiTags(tag), ApiBearerAuth(), ApiCookieAuth(COOKIE_SCHEME));

/** OpenAPI: an internal controller (the engine's `X-Service-Token`). */
export const InternalApi = (tag: string): ClassDecorator =>
  applyDecorators(ApiTags(`internal: ${tag}`), ApiSecurity(SERVICE_TOKEN_SCHEME));
