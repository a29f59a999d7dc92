import type { DataSource } from 'typeorm';
import type { SlackUserCommand, SlackUserReply } from '@openq/contracts';
import { userOfSlackMember } from '../store/slack-links.store';

/** Who a Slack member id is (asked by the gateway when a Slack button is clicked). */
export async function slackUserQuery(ds: DataSource, cmd: SlackUserCommand): Promise<SlackUserReply> {
  return { userId: await userOfSlackMember(ds.manager, cmd.slackUserId) };
}
