import { SetMetadata } from '@nestjs/common';

/** Metadata key of `@PublicRoute()`; auth guards let such routes through without credentials. */
export const PUBLIC_ROUTE = 'openq:publicRoute';

/** Marks an operability route (`/healthz`, `/readyz`, `/metrics`, `/docs`) as open to anyone. */
export const PublicRoute = (): ClassDecorator & MethodDecorator => SetMetadata(PUBLIC_ROUTE, true);
