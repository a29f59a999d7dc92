import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A consumed message id, recorded in the transaction that applied its effect. */
@Entity({ name: 'inbox' })
export class InboxRecord {
  @PrimaryColumn({ type: 'text' })
  consumer!: string;

  @PrimaryColumn({ name: 'message_id', type: 'text' })
  messageId!: string;

  @Column({ name: 'processed_at', type: 'timestamptz', default: () => 'now()' })
  processedAt!: Date;
}
