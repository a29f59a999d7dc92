import { createServer, type AddressInfo } from 'node:net';
import { InfrastructureUnavailableError } from '@openq/persistence';
import { connectNats, redactNatsUrl } from './nats';

/** A port nobody listens on: bind, read it, close. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('connectNats', () => {
  it('turns a refused connection into one line saying what to start', async () => {
    const url = `nats://127.0.0.1:${await closedPort()}`;
    const error = await connectNats(url, 'test').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureUnavailableError);
    expect((error as InfrastructureUnavailableError).what).toBe('NATS');
    expect((error as Error).message).toBe(
      `NATS is not answering at ${url} — start it (e.g. \`nats-server -js\`) or set NATS_URL.`,
    );
  });
});

describe('redactNatsUrl', () => {
  it('hides the password of every server', () => {
    expect(redactNatsUrl('nats://u:p@a:4222,nats://v:q@b:4222')).toBe(
      'nats://u:***@a:4222,nats://v:***@b:4222',
    );
    expect(redactNatsUrl('nats://a:4222')).toBe('nats://a:4222');
  });
});
