import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per consumer and subject, the stream sequence of the last message applied: what lets replicas
 * sharing one durable consumer apply the messages of one subject in stream order.
 */
export class ConsumerPositions1796083200000 implements MigrationInterface {
  name = 'ConsumerPositions1796083200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE consumer_position (
        consumer text NOT NULL,
        subject text NOT NULL,
        last_seq bigint NOT NULL,
        PRIMARY KEY (consumer, subject)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE consumer_position`);
  }
}
