import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An event waiting to leave the service; written in the same transaction as the effect. */
@Entity({ name: 'outbox' })
@Index('outbox_unpublished', ['id'], { where: 'published_at IS NULL' })
export class OutboxRecord {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'event_id', type: 'uuid', unique: true })
  eventId!: string;

  @Column({ type: 'text' })
  subject!: string;

  @Column({ type: 'jsonb' })
  envelope!: Record<string, unknown>;

  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" })
  headers!: Record<string, string>;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  /** When the relay may take the row: at once, or after the committing process had its chance. */
  @Column({ name: 'relay_after', type: 'timestamptz', default: () => 'now()' })
  relayAfter!: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt!: Date | null;
}
