import { PROJECT_ROLES, type ProjectRole } from '@openq/contracts';

/** SPEC §2 project roles, weakest first (libs/contracts: the inbox shows them too). */
export const ROLES = PROJECT_ROLES;
export type Role = ProjectRole;

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export { roleAtLeast } from '@openq/contracts';

/** Who is calling a user route, once the token is verified. */
export interface UserIdentity {
  /** The token's `sub`. */
  id: string;
  /** Project id → role, only for well-formed entries of the token's `roles` claim. */
  roles: ReadonlyMap<string, Role>;
}

/** The identity plus the role it holds on the route's project (set by the user guard). */
export interface AuthenticatedUser extends UserIdentity {
  projectId: string;
  role: Role;
}
