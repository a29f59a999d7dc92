import type { EntityManager } from 'typeorm';
import type { SlackLinkView } from '@openq/contracts';

/** A person's Slack link (table `slack_link`: `user_id` → `slack_user_id`, unique). */
export async function linkView(m: EntityManager, userId: string): Promise<SlackLinkView> {
  const [row] = (await m.query(`SELECT slack_user_id, updated_at FROM slack_link WHERE user_id = $1`, [
    userId,
  ])) as { slack_user_id: string; updated_at: Date }[];
  return {
    userId,
    slackUserId: row?.slack_user_id ?? null,
    updatedAt: row ? new Date(row.updated_at).toISOString() : null,
  };
}

export async function unlinkSlack(m: EntityManager, userId: string): Promise<void> {
  await m.query(`DELETE FROM slack_link WHERE user_id = $1`, [userId]);
}

/** Links (or relinks) the person's member id; a member id another user holds is a unique violation. */
export async function linkSlack(m: EntityManager, userId: string, slackUserId: string): Promise<void> {
  await m.query(
    `INSERT INTO slack_link (user_id, slack_user_id) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET slack_user_id = EXCLUDED.slack_user_id, updated_at = now()`,
    [userId, slackUserId],
  );
}

/** The openq user a Slack member id is linked to, if any. */
export async function userOfSlackMember(m: EntityManager, slackUserId: string): Promise<string | null> {
  const [row] = (await m.query(`SELECT user_id FROM slack_link WHERE slack_user_id = $1`, [slackUserId])) as {
    user_id: string;
  }[];
  return row?.user_id ?? null;
}
