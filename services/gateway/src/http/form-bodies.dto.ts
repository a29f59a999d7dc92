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

/** `POST /dev/login` (development only): who to sign in as. */
export class DevLoginFormBody {
  @IsEntityId()
  user!: string;

  /** One project id, or several separated by commas: the role holds on each; the inbox opens on the first. */
  @IsString()
  @MaxLength(660)
  project!: string;

  /** Default `developer`. */
  @IsOptional()
  @IsOneOf(PROJECT_ROLES)
  role?: string;
}
