/** SPEC §2 project roles, weakest first. */
export const ROLES = ['viewer', 'developer', 'maintainer', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** viewer < developer < maintainer < owner. */
export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}

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
