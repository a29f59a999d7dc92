import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource, type EntityManager } from 'typeorm';
import {
  Commands,
  refusal,
  SLACK_REASONS,
  SlackReason,
  type Refusal,
  type SetSlackLinkCommand,
  type SlackLinkView,
  type SlackUserCommand,
  type SlackUserReply,
  type UserCommand,
} from '@openq/contracts';
import { isUniqueViolation } from '@openq/persistence';

async function linkView(m: EntityManager, userId: string): Promise<SlackLinkView> {
  const [row] = (await m.query(`SELECT slack_user_id, updated_at FROM slack_link WHERE user_id = $1`, [
    userId,
  ])) as { slack_user_id: string; updated_at: Date }[];
  return {
    userId,
    slackUserId: row?.slack_user_id ?? null,
    updatedAt: row ? new Date(row.updated_at).toISOString() : null,
  };
}

/**
 * Issue #34 (SPEC §12.5) a person's Slack member id (`openq.notifier.slack-link`, `set-slack-link`;
 * the gateway's `/me/slack`) and who a Slack member id is (`slack-user`, asked by the gateway when
 * a Slack button is clicked). A member id belongs to one openq user: another's is 409.
 */
@Controller()
export class SlackLinksController {
  constructor(private readonly dataSource: DataSource) {}

  @MessagePattern(Commands.notifier.slackLink.type)
  slackLink(@Payload() cmd: UserCommand): Promise<SlackLinkView> {
    return linkView(this.dataSource.manager, cmd.userId);
  }

  @MessagePattern(Commands.notifier.setSlackLink.type)
  async setSlackLink(@Payload() cmd: SetSlackLinkCommand): Promise<SlackLinkView | Refusal> {
    const m = this.dataSource.manager;
    if (cmd.slackUserId === null) {
      await m.query(`DELETE FROM slack_link WHERE user_id = $1`, [cmd.userId]);
      return linkView(m, cmd.userId);
    }
    try {
      await m.query(
        `INSERT INTO slack_link (user_id, slack_user_id) VALUES ($1, $2)
         ON CONFLICT (user_id) DO UPDATE SET slack_user_id = EXCLUDED.slack_user_id, updated_at = now()`,
        [cmd.userId, cmd.slackUserId],
      );
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

  @MessagePattern(Commands.notifier.slackUser.type)
  async slackUser(@Payload() cmd: SlackUserCommand): Promise<SlackUserReply> {
    const [row] = (await this.dataSource.query(`SELECT user_id FROM slack_link WHERE slack_user_id = $1`, [
      cmd.slackUserId,
    ])) as { user_id: string }[];
    return { userId: row?.user_id ?? null };
  }
}
