#!/usr/bin/env node
import './register-paths';
import 'reflect-metadata';
import { InfrastructureUnavailableError } from '@openq/persistence';
import { replay } from './replay';
import { start, SERVICE_NAMES, type ServiceName } from './start';
import { main as token } from './token';

const USAGE = `usage: openq <command>
  start [questions|gates|context|gateway ...]   run services (default: all four, in this process)
  token --user <id> --project <id> [--role viewer|developer|maintainer|owner] [--ttl 8h]
  replay                                        rebuild the question projection from the log`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start': {
      const unknown = rest.filter((n) => !(SERVICE_NAMES as readonly string[]).includes(n));
      if (unknown.length > 0) {
        process.stderr.write(`openq start: unknown service ${unknown.join(', ')} (one of ${SERVICE_NAMES.join(', ')})\n`);
        return 2;
      }
      await start(rest.length > 0 ? (rest as ServiceName[]) : undefined);
      return -1; // keeps running
    }
    case 'token':
      return token(rest);
    case 'replay': {
      await replay();
      return 0;
    }
    default:
      process.stderr.write(`${USAGE}\n`);
      return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
}

run(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof InfrastructureUnavailableError) process.stderr.write(`openq: ${error.message}\n`);
    else process.stderr.write(`openq: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
