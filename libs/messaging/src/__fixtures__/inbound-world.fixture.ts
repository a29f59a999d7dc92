import { connect, type NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { STREAMS } from '@openq/contracts';
import { createTestDatabase, startNatsServer } from '@openq/testing';
import { ensureStreams } from '../provisioning';
import { SubjectOrder } from '../subject-order';
import { openPingDatabase } from './ping-service.fixture';

/** What the inbound path's int specs run against: real PostgreSQL and a nats-server of their own. */
export interface InboundWorld {
  ds: DataSource;
  nc: NatsConnection;
  /** The order of consumer `svc__a` on AGENT_EVENTS, from an ack floor of 0. */
  order: SubjectOrder;
  close(): Promise<void>;
}

/** A database with the ping service's tables, a nats-server with openq's streams, an order on it. */
export async function openInboundWorld(): Promise<InboundWorld> {
  const db = await createTestDatabase();
  const ds = await openPingDatabase(db.url);
  const nats = await startNatsServer();
  const nc = await connect({ servers: nats.url });
  const jsm = await nc.jetstreamManager();
  await ensureStreams(jsm);
  const order = new SubjectOrder('svc__a', { jsm, stream: STREAMS.agentEvents.name, ackFloor: 0 });
  return {
    ds,
    nc,
    order,
    close: async () => {
      await nc.close();
      await nats.stop();
      await ds.destroy();
      await db.drop();
    },
  };
}
