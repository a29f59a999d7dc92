import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The stream sequence of the last message of `subject` that `consumer` applied (or set aside). */
@Entity({ name: 'consumer_position' })
export class ConsumerPositionRecord {
  @PrimaryColumn({ type: 'text' })
  consumer!: string;

  @PrimaryColumn({ type: 'text' })
  subject!: string;

  @Column({ name: 'last_seq', type: 'bigint' })
  lastSeq!: string;
}
