import type { DataSource } from 'typeorm';
import type { SlackLinkView, UserCommand } from '@openq/contracts';
import { linkView } from '../store/slack-links.store';

export function slackLinkQuery(ds: DataSource, cmd: UserCommand): Promise<SlackLinkView> {
  return linkView(ds.manager, cmd.userId);
}
