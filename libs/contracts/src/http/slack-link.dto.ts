import { Matches } from 'class-validator';
import { Nullable } from '../validators';

/** [openq] issue #34 a Slack member id (`U…`, or `W…` on Enterprise Grid), as Slack shows it in a profile. */
export const SLACK_USER_ID_PATTERN = /^[UW][A-Z0-9]{2,31}$/;

/**
 * [openq] issue #34 (SPEC §12.5) `PUT /me/slack`: the caller's Slack member id, so a click on a
 * Slack button answers as them; `null` unlinks it.
 */
export class SlackLinkBody {
  @Nullable()
  @Matches(SLACK_USER_ID_PATTERN, { message: '$property must be a Slack member id (U… or W…)' })
  slackUserId!: string | null;
}
