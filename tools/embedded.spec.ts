import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { answers, claimHome, findNatsServer, openqHome, startEmbeddedInfrastructure } from './embedded';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'openq-embedded-spec-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('when the embedded servers start', () => {
  const said: string[] = [];
  const out = (line: string) => said.push(line);

  it('never with both URLs set: nothing starts, not even the home folder', async () => {
    const home = join(tempDir(), '.openq');
    const env = { OPENQ_HOME: home, DATABASE_URL: 'postgres://db:5432/x', NATS_URL: 'nats://broker:4222' };
    expect(await startEmbeddedInfrastructure(env, out)).toBeNull();
    expect(existsSync(home)).toBe(false);
    expect(said).toEqual([]);
  });

  it('never in production, whatever answers', async () => {
    const home = join(tempDir(), '.openq');
    expect(await startEmbeddedInfrastructure({ OPENQ_HOME: home, NODE_ENV: 'production' }, out)).toBeNull();
    expect(existsSync(home)).toBe(false);
  });
});

describe('claimHome (issue #34)', () => {
  it('claims a free folder, and refuses a second openq there in one line naming the first', async () => {
    const home = join(tempDir(), '.openq');
    claimHome({ OPENQ_HOME: home });
    expect(readFileSync(join(home, 'openq.pid'), 'utf8')).toBe(`${process.pid}\n`);
    // Another node process holding the folder: what a second `npm start` finds.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      await new Promise((r) => other.once('spawn', r));
      writeFileSync(join(home, 'openq.pid'), `${other.pid}\n`);
      expect(() => claimHome({ OPENQ_HOME: home })).toThrow(
        `openq is already running here (pid ${other.pid}): use it, or stop it first with \`npm run openq -- stop\``,
      );
    } finally {
      other.kill();
      await new Promise((r) => other.once('exit', r));
    }
    // Its process gone, the folder is free again.
    expect(() => claimHome({ OPENQ_HOME: home })).not.toThrow();
  });
});

describe('OPENQ_HOME', () => {
  it('defaults to .openq in the working directory', () => {
    expect(openqHome({})).toBe(resolve('.openq'));
    expect(openqHome({ OPENQ_HOME: ' ' })).toBe(resolve('.openq'));
  });

  it('names another folder', () => {
    expect(openqHome({ OPENQ_HOME: '/var/tmp/openq' })).toBe('/var/tmp/openq');
  });
});

describe('findNatsServer', () => {
  it('takes NATS_SERVER_BIN first, then PATH', () => {
    const dir = tempDir();
    const bin = join(dir, 'nats-server');
    writeFileSync(bin, '#!/bin/sh\n');
    chmodSync(bin, 0o755);
    expect(findNatsServer({ NATS_SERVER_BIN: bin, PATH: '' })).toBe(bin);
    expect(findNatsServer({ PATH: `/nonexistent:${dir}` })).toBe(bin);
  });
});

describe('answers', () => {
  it('tells a listening port from a closed one', async () => {
    const server: Server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    expect(await answers('127.0.0.1', port)).toBe(true);
    await new Promise((r) => server.close(r));
    expect(await answers('127.0.0.1', port)).toBe(false);
  });
});
