// Issue #30: the inbox names the contract's words (libs/contracts), never copies of them. These
// helpers test a value the server sent (a string) against one of its lists.
import { PROJECT_ROLES, roleAtLeast, type ProjectRole } from '@openq/contracts/browser';

/** Whether `value` is one of `list`'s words (a code the page does not know yet is not). */
export function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}

/** Whether a role the token gives (maybe none, maybe one this page does not know) is at least `minimum`. */
export function hasRole(role: string | null | undefined, minimum: ProjectRole): boolean {
  return isOneOf(PROJECT_ROLES, role) && roleAtLeast(role, minimum);
}
