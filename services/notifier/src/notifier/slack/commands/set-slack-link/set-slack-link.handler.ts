import type { DataSource } from 'typeorm';
import {
  refusal,
  SLACK_REASONS,
  SlackReason,
  type Refusal,
  type SetSlackLinkCommand,
  type SlackLinkView,
} from '@openq/contracts';
import { isUniqueViolation } from '@openq/persistence';
import { linkSlack, linkView, unlinkSlack } from '../../store/slack-links.store';

/** Links a person's Slack member id (null unlinks it); a member id belongs to one openq user: another's is 409. */
export async function setSlackLinkHandler(
  ds: DataSource,
  cmd: SetSlackLinkCommand,
): Promise<SlackLinkView | Refusal> {
  const m = ds.manager;
  if (cmd.slackUserId === null) {
    await unlinkSlack(m, cmd.userId);
    return linkView(m, cmd.userId);
  }
  try {
    await linkSlack(m, cmd.userId, cmd.slackUserId);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return refusal(
      SLACK_REASONS.slack_ja_vinculado.status,
      SlackReason.alreadyLinked,
      'slackUserId: this Slack member id is linked to another openq user',
    );
  }
  return linkView(m, cmd.userId);
}
