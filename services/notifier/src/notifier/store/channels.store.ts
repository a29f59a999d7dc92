import type { EntityManager } from 'typeorm';
import { readOncePerTransaction } from '@openq/persistence';
import type { EmailMode, NotificationChannelsBody, NotificationChannelsView } from '@openq/contracts';
import type { ChannelKind, ChannelTargets } from '../adapters/channels/channel';

export const CHANNEL_KINDS: readonly ChannelKind[] = ['email', 'slack', 'webhook'];

export interface ChannelRow {
  kind: ChannelKind;
  user_id: string;
  target: ChannelTargets[ChannelKind];
  enabled: boolean;
  updated_at: Date;
}

/**
 * The enabled channels of these people on the project, of the kinds this process can send. Read
 * once per transaction for the same people (`readOncePerTransaction`): the events of a batch
 * mostly address the same session authors; no event's transaction writes channels.
 */
export async function enabledChannels(
  m: EntityManager,
  projectId: string,
  userIds: readonly string[],
  kinds: readonly ChannelKind[],
): Promise<ChannelRow[]> {
  if (userIds.length === 0 || kinds.length === 0) return [];
  const users = [...new Set(userIds)].sort();
  return readOncePerTransaction(m, JSON.stringify(['channels', projectId, users, kinds]), () =>
    m.query(
      `SELECT kind, user_id, target, enabled, updated_at FROM notification_channel
        WHERE project_id = $1 AND user_id = ANY($2::text[]) AND kind = ANY($3::text[]) AND enabled
        ORDER BY user_id, kind`,
      [projectId, users, kinds],
    ),
  );
}

/** Applies a PUT: a kind left out stays, `null` removes it, an object replaces it whole. */
export async function setChannels(
  m: EntityManager,
  projectId: string,
  userId: string,
  body: NotificationChannelsBody,
): Promise<void> {
  for (const kind of CHANNEL_KINDS) {
    const value = body[kind];
    if (value === undefined) continue;
    if (value === null) {
      await m.query(`DELETE FROM notification_channel WHERE project_id = $1 AND user_id = $2 AND kind = $3`, [
        projectId,
        userId,
        kind,
      ]);
      continue;
    }
    const { enabled, ...target } = value as unknown as { enabled?: boolean } & Record<string, unknown>;
    await m.query(
      `INSERT INTO notification_channel (project_id, user_id, kind, target, enabled, updated_at)
       VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (project_id, user_id, kind)
       DO UPDATE SET target = EXCLUDED.target, enabled = EXCLUDED.enabled, updated_at = now()`,
      [projectId, userId, kind, JSON.stringify(target), enabled ?? true],
    );
  }
}

/**
 * A URL that may carry a token in its path or query, as the API shows it: origin and the last 4
 * characters only (`https://hooks.slack.com/…x9Qz`).
 */
export function maskUrl(url: string): string {
  let origin = '';
  try {
    origin = new URL(url).origin;
  } catch {
    origin = '';
  }
  return `${origin}/…${url.slice(-4)}`;
}

export async function channelsView(
  m: EntityManager,
  projectId: string,
  userId: string,
): Promise<NotificationChannelsView> {
  const rows: ChannelRow[] = await m.query(
    `SELECT kind, user_id, target, enabled, updated_at FROM notification_channel
      WHERE project_id = $1 AND user_id = $2`,
    [projectId, userId],
  );
  const of = <K extends ChannelKind>(kind: K) =>
    rows.find((r) => r.kind === kind) as (ChannelRow & { target: ChannelTargets[K] }) | undefined;
  const email = of('email');
  const slack = of('slack');
  const webhook = of('webhook');
  const at = (r: ChannelRow) => new Date(r.updated_at).toISOString();
  return {
    projectId,
    userId,
    email: email
      ? {
          address: email.target.address,
          mode: email.target.mode as EmailMode,
          enabled: email.enabled,
          updatedAt: at(email),
        }
      : null,
    slack: slack
      ? { webhookUrl: maskUrl(slack.target.webhookUrl), enabled: slack.enabled, updatedAt: at(slack) }
      : null,
    webhook: webhook
      ? {
          url: maskUrl(webhook.target.url),
          secretSet: true,
          enabled: webhook.enabled,
          updatedAt: at(webhook),
        }
      : null,
  };
}
