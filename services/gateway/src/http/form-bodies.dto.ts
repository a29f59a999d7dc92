import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsEntityId, IsOneOf, PROJECT_ROLES } from '@openq/contracts';

/**
 * [openq] issue #30 the bodies of the two server-rendered forms, as classes so the OpenAPI
 * document derives their schemas like every other body's. Their controllers read these fields
 * themselves (a form re-shown with its error, not a JSON refusal); the classes describe them.
 */

/** `POST /l/:token`: the confirm page's one field (an HMAC of the link, less than an hour old). */
export class OneTapConfirmForm {
  @IsString()
  @MaxLength(512)
  confirm!: string;
}

/** How many projects one development sign-in may grant a role on. */
export const DEV_LOGIN_MAX_PROJECTS = 10;
/** Their ids (64 characters at most) and the commas and spaces between them. */
export const DEV_LOGIN_PROJECTS_MAX_LENGTH = DEV_LOGIN_MAX_PROJECTS * 66;

/** `POST /dev/login` (development only): who to sign in as. */
export class DevLoginFormBody {
  @IsEntityId()
  user!: string;

  /** One project id, or several separated by commas: the role holds on each; the inbox opens on the first. */
  @IsString()
  @MaxLength(DEV_LOGIN_PROJECTS_MAX_LENGTH)
  project!: string;

  /** Default `developer`. */
  @IsOptional()
  @IsOneOf(PROJECT_ROLES)
  role?: string;
}
