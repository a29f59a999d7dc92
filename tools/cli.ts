#!/usr/bin/env node
import './register-paths';
import 'reflect-metadata';
import { InfrastructureUnavailableError } from '@openq/persistence';
import { afterAppsClosed } from '@openq/platform';
import { demoOptionsFromEnv, runDemo } from './demo';
import { claimHome, EmbeddedUnavailable, startEmbeddedInfrastructure, stopOpenq } from './embedded';
import { replay } from './replay';
import { start, SERVICE_NAMES, type ServiceName } from './start';
import { main as token } from './token';

const USAGE = `usage: openq <command>
  start [questions|gates|context|notifier|gateway ...]
                                                run services (default: $OPENQ_SERVICE, else all five in this process;
                                                then, with no DATABASE_URL / NATS_URL and nothing on their default
                                                ports, an embedded PostgreSQL and nats-server under $OPENQ_HOME or .openq/)
  stop                                          stop the openq started from this folder (or $OPENQ_HOME) and its servers
  token --user <id> --project <id> [--role viewer|developer|maintainer|owner] [--ttl 8h]
  replay [questions]                            rebuild the question projection from the log
  replay context [--allow-partial]              rebuild the context read models from the streams
                                                (refused when a stream lost its first messages, unless --allow-partial)
  demo [--project demo-<run>] [--user ana] [--url http://localhost:3000]
                                                play a scripted engine against a running openq`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start': {
      // The container image selects its service with OPENQ_SERVICE (one image for all five).
      const names =
        rest.length > 0
          ? rest
          : (process.env.OPENQ_SERVICE ?? '')
              .split(',')
              .map((n) => n.trim())
              .filter((n) => n !== '');
      const unknown = names.filter((n) => !(SERVICE_NAMES as readonly string[]).includes(n));
      if (unknown.length > 0) {
        process.stderr.write(
          `openq start: unknown service ${unknown.join(', ')} (one of ${SERVICE_NAMES.join(', ')})\n`,
        );
        return 2;
      }
      // Laptop mode (the five services in this process) brings up what the machine lacks, once per folder.
      if (names.length === 0) claimHome(process.env);
      const embedded = names.length === 0 ? await startEmbeddedInfrastructure(process.env) : null;
      if (embedded) afterAppsClosed('embedded servers', embedded.stop);
      await start(names.length > 0 ? (names as ServiceName[]) : undefined, embedded?.lines ?? []);
      return -1; // keeps running
    }
    case 'stop':
      return stopOpenq(process.env);
    case 'token':
      return token(rest);
    case 'demo':
      await runDemo(demoOptionsFromEnv(rest));
      return 0;
    case 'replay':
      return replay(rest);
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
    if (error instanceof EmbeddedUnavailable) {
      process.stderr.write(`openq: ${error.message}\n`);
      process.exit(error.exitCode);
    }
    if (error instanceof InfrastructureUnavailableError) process.stderr.write(`openq: ${error.message}\n`);
    else
      process.stderr.write(
        `openq: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    process.exit(1);
  },
);
