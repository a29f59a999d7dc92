import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A message given up on: terminated on the broker, kept here with the reason. */
@Entity({ name: 'dead_letter' })
@Index('dead_letter_consumer', ['consumer', 'createdAt'])
export class DeadLetterRecord {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  consumer!: string;

  @Column({ type: 'text' })
  subject!: string;

  @Column({ name: 'stream_seq', type: 'bigint', nullable: true })
  streamSeq!: string | null;

  @Column({ name: 'message_id', type: 'text', nullable: true })
  messageId!: string | null;

  @Column({ type: 'text' })
  reason!: string;

  @Column({ type: 'text' })
  message!: string;

  @Column({ type: 'text' })
  payload!: string;

  @Column({ type: 'integer' })
  deliveries!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
