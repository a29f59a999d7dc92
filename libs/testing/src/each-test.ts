import { connect, type NatsConnection } from 'nats';
import { createTestDatabase, type TestDatabase } from './database';
import { startNatsServer, type TestNatsServer } from './nats-server';

/** What `eachTestNatsAndDatabase` gives every test of a file. */
export interface TestBroker {
  /** A private nats-server with JetStream, stopped after the test. */
  nats: TestNatsServer;
  /** A new database, dropped after the test. */
  db: TestDatabase;
  /** A connection to `nats`, closed after the test. */
  nc: NatsConnection;
}

/**
 * Registers, in the calling spec file, a `beforeEach` that starts a private nats-server, creates a
 * database and connects, and an `afterEach` that undoes all three; the returned object holds the
 * current test's (read its fields inside tests and hooks, not at the file's top level).
 */
export function eachTestNatsAndDatabase(): TestBroker {
  const current = {} as TestBroker;
  beforeEach(async () => {
    current.nats = await startNatsServer();
    current.db = await createTestDatabase();
    current.nc = await connect({ servers: current.nats.url });
  });
  afterEach(async () => {
    await current.nc.close();
    await current.nats.stop();
    await current.db.drop();
  });
  return current;
}
