import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePort } from './nats-server';

describe('freePort', () => {
  it('hands out ports outside the range the kernel gives outgoing connections, each one bindable', async () => {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) expect(port < low! || port > high!).toBe(true);
    // Spread out, so suites side by side rarely try the same port.
    expect(new Set(ports).size).toBeGreaterThan(15);
    const port = ports[0]!;
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });

  it('never hands out one port twice in a process, though nothing has bound them yet', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 300; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });
});
