import { Logger } from '@nestjs/common';
import {
  BaseRpcContext,
  Server,
  type CustomTransportStrategy,
  type MessageHandler,
} from '@nestjs/microservices';
import { lastValueFrom, isObservable } from 'rxjs';
import type { JetStreamClient, JetStreamManager, Msg, NatsConnection, Subscription } from 'nats';
import type { DataSource } from 'typeorm';
import {
  errorReply,
  EVERY_OPENQ_EVENT,
  isRefusal,
  okReply,
  requestSubject,
  STREAMS,
  streamOfType,
  WHOLE_STREAM_CONSUMERS,
  type EventEnvelope,
  type MessageRegistry,
  type Reply,
} from '@openq/contracts';
import { decodeJson, encodeJson } from './codec';
import { ConsumerRunner, type ConsumerRunnerOptions } from './consumer-runner';
import { asForeground, processForeground, type ForegroundWork } from './foreground';
import { InboundProcessor, type EventContext, type EventUnit, type InvalidMessage } from './inbound';
import { outboxBacklog, OutboxRelay } from './outbox-relay';
import { OutboxPublisher } from './outbox-publisher';
import { messagingMetrics, secondsSince } from './metrics';
import {
  consumerInfoOrNull,
  ensureEventConsumer,
  ensureStreams,
  retireConsumers,
  whileJetStreamSettles,
} from './provisioning';
import { durableName, type ConsumerSettings, type StreamSettings } from './topology';
import { CORRELATION_HEADER, natsHeaderReader, runInScope } from './trace-context';
import { isRetryLater } from './retry-later';
import { isOverloaded } from './group-commit';
import { SubjectOrder } from './subject-order';
import { TransactionSlots } from './transaction-slots';
import { isTransientDbError } from '@openq/persistence';

export interface JetStreamServerOptions {
  /** The service name: consumer prefix, queue group, `openq.<service>.*` request subjects. */
  service: string;
  nc: NatsConnection;
  dataSource: DataSource;
  /** Its schema and URL, for the outbox relay's LISTEN connection. */
  schema: string;
  databaseUrl: string;
  /** Validates inbound events' data by type. */
  eventRegistry?: MessageRegistry;
  /** Validates request payloads by request subject (`openq.<service>.<verb>`). */
  commandRegistry?: MessageRegistry;
  /** Per event type: what to do, inside the dead-letter transaction, when a message is refused. */
  onInvalid?: Record<string, (invalid: InvalidMessage) => Promise<void>>;
  /** Batches (transactions) each durable consumer handles at once. */
  concurrency?: number;
  /** Most messages a durable consumer applies in one transaction (default 256; 1: one per transaction). */
  batchSize?: number;
  /**
   * Consumer batches of this process in their transaction at once, all durables together: what
   * arrives meanwhile waits and goes in the next batch (`TransactionSlots`). Default
   * `OPENQ_CONSUMER_TRANSACTIONS`, else 2; 0 leaves only each durable's `concurrency`.
   */
  transactionSlots?: number;
  /**
   * While a durable's work queues, how long its next batch may wait for company (ms): the option,
   * else `OPENQ_CONSUMER_LINGER_MS`, else `DEFAULT_CONSUMER_LINGER_MS`; 0: never.
   */
  consumerLingerMs?: number;
  /**
   * A background service (its consumers keep read models and send notices): its batches yield to
   * the foreground work of the process (`ForegroundWork`) for at most the option's ms, else
   * `OPENQ_BACKGROUND_YIELD_MS`, else `DEFAULT_BACKGROUND_YIELD_MS`; 0: never. A foreground
   * service (the default) counts its batches and requests as that work.
   */
  background?: { yieldMs?: number };
  /** The process's foreground work (default: `processForeground`, one per process); tests give their own. */
  foreground?: ForegroundWork;
  streams?: StreamSettings;
  consumers?: ConsumerSettings;
  /**
   * Its types of OPENQ_EVENTS ride one durable of the whole stream (`<service>__openq_events`)
   * even without a handler of `EVERY_OPENQ_EVENT`: a delivery, a claim and a transaction per batch
   * of the stream instead of per batch of each type (docs/decisions.md, "A service's types ride its
   * whole-stream durable"); a message of a type it does not handle is acked without effect.
   * Default: whether the service is one of the contract's `WHOLE_STREAM_CONSUMERS`.
   */
  wholeStream?: boolean;
  /** False: this process publishes nothing (neither after commit nor by relay); tests of a backlog. */
  relay?: boolean;
  /** Fault injection for tests (see `OutboxPublisherOptions.beforePublish`). */
  beforeAfterCommitPublish?: (eventIds: string[]) => void;
  /** How often consumer lag and the outbox backlog are sampled into /metrics (0: never). */
  sampleIntervalMs?: number;
}

/** The context handlers receive with `@Ctx()` for events: the envelope and the transaction. */
export class JetStreamEventContext extends BaseRpcContext<[EventContext]> {
  get event(): EventContext {
    return this.args[0];
  }
}

export class JetStreamRequestContext extends BaseRpcContext<[Msg]> {}

/**
 * `@EventPattern(type, WHOLE_BATCH)`: the method takes `@Payload() units: EventUnit[]` — every new
 * message of a batch at once, each with its own context (`unit.event`: the batch's `manager`, the
 * message's own `outbox`, envelope, deliveries) — so it can write the group set-based. A batch of
 * one (or a split batch, message by message) is a call with one unit. All of a type's handlers in
 * a service are whole-batch or none is. Its context is a `JetStreamBatchContext`.
 */
export const WHOLE_BATCH = { wholeBatch: true } as const;

export class JetStreamBatchContext extends BaseRpcContext<[EventUnit[]]> {
  get units(): EventUnit[] {
    return this.args[0];
  }
}

/**
 * `@EventPattern(type, BEFORE_TRANSACTION)`: the method runs before the message's transaction
 * (no connection held, no lock: the place for a call to another service), with a
 * `JetStreamPrepareContext`; what it returns is `ctx.event.prepared` for the type's handlers.
 * One per type; it may run again for the same message (a retry), so it only reads.
 */
export const BEFORE_TRANSACTION = { beforeTransaction: true } as const;

export class JetStreamPrepareContext extends BaseRpcContext<[EventEnvelope, () => Promise<boolean>]> {
  get envelope(): EventEnvelope {
    return this.args[0];
  }

  /**
   * Whether this consumer has already applied the message (its inbox has it): a redelivery. A
   * step whose calls depend on state the message itself may have moved on since (the analyst's
   * question keys carry the task's run) asks first and does nothing for one; the transaction
   * then finds it in the inbox and acks it without effect.
   */
  applied(): Promise<boolean> {
    return this.args[1]();
  }
}

/** Two, as the request edge's group commit runs two groups: docs/performance.md, session 9. */
export const DEFAULT_TRANSACTION_SLOTS = 2;

/**
 * A consumer setting: the server's option, else the environment variable (when set), else the
 * default; a value outside `valid` stops the start with the variable's name.
 */
function consumerSetting(
  option: number | undefined,
  variable: string,
  fallback: number,
  valid: { test: (n: number) => boolean; words: string },
): number {
  const fromEnv = process.env[variable];
  const value = option ?? (fromEnv !== undefined && fromEnv.trim() !== '' ? Number(fromEnv) : fallback);
  if (!valid.test(value)) throw new Error(`${variable} must be ${valid.words}, got ${fromEnv}`);
  return value;
}

function transactionSlotsOf(options: JetStreamServerOptions): TransactionSlots | undefined {
  const size = consumerSetting(
    options.transactionSlots,
    'OPENQ_CONSUMER_TRANSACTIONS',
    DEFAULT_TRANSACTION_SLOTS,
    { test: (n) => Number.isInteger(n) && n >= 0, words: 'a whole number ≥ 0' },
  );
  return size > 0 ? new TransactionSlots(size) : undefined;
}

/**
 * 15 ms: only while a durable's last batch held more than one message (a lone message goes at
 * once). A/B of 0 and 15 in the same minutes: docs/performance.md, session 12.
 */
export const DEFAULT_CONSUMER_LINGER_MS = 15;

function lingerOf(options: JetStreamServerOptions): number {
  return consumerSetting(options.consumerLingerMs, 'OPENQ_CONSUMER_LINGER_MS', DEFAULT_CONSUMER_LINGER_MS, {
    test: (n) => Number.isFinite(n) && n >= 0 && n <= 1000,
    words: 'between 0 and 1000',
  });
}

type ConsumerRole = NonNullable<ConsumerRunnerOptions['foreground']>;

/**
 * 50 ms: a background batch waits at most this long for the foreground work of its process to
 * pause. A/B of 0 and 50, and of 50 and 200: docs/performance.md, session 14.
 */
export const DEFAULT_BACKGROUND_YIELD_MS = 50;

function consumerRoleOf(options: JetStreamServerOptions): ConsumerRole {
  const work = options.foreground ?? processForeground;
  if (!options.background) return { work, role: 'foreground' };
  const yieldMs = consumerSetting(
    options.background.yieldMs,
    'OPENQ_BACKGROUND_YIELD_MS',
    DEFAULT_BACKGROUND_YIELD_MS,
    { test: (n) => Number.isFinite(n) && n >= 0 && n <= 1000, words: 'between 0 and 1000' },
  );
  return { work, role: 'background', yieldMs };
}

/** Whether `@EventPattern(type, extras)` marked the handler with one of this transport's extras. */
function marked(
  handler: MessageHandler,
  extra: keyof typeof BEFORE_TRANSACTION | keyof typeof WHOLE_BATCH,
): boolean {
  return (handler.extras as Record<string, unknown> | undefined)?.[extra] === true;
}

/** A type's handlers: those run in the message's transaction, and its before-transaction step. */
interface Chain {
  inside: MessageHandler[];
  before: MessageHandler | null;
}

/** The whole-stream durable's own chain in a service that has no handler of the whole stream. */
const NO_CHAIN: Chain = { inside: [], before: null };

/** How often a folded type's old durable is asked whether it is drained. */
const DRAIN_CHECK_MS = 1_000;

/**
 * The types whose chains ride the whole-stream durable (docs/decisions.md, "A service's types
 * ride its whole-stream durable"): with a handler of `EVERY_OPENQ_EVENT`, or in a service told to
 * (`wholeStream`) without one, each other type of that stream whose chain runs per message, with
 * no before-transaction step nor dead-letter step of its own (`onInvalid`), is applied from the
 * whole-stream durable's messages, in the same transaction, rather than from a durable of its own
 * (a delivery, a claim and a transaction fewer per message).
 */
function foldedTypes(
  chains: ReadonlyMap<string, Chain>,
  ownDeadLetters: ReadonlySet<string>,
  wholeStream: boolean,
): Map<string, Chain> {
  const folded = new Map<string, Chain>();
  const whole = chains.get(EVERY_OPENQ_EVENT) ?? (wholeStream ? NO_CHAIN : undefined);
  if (!whole || whole.before || whole.inside.some((h) => marked(h, 'wholeBatch'))) return folded;
  const stream = streamOfType(EVERY_OPENQ_EVENT);
  for (const [type, chain] of chains) {
    if (type === EVERY_OPENQ_EVENT || streamOfType(type) !== stream) continue;
    if (chain.before || chain.inside.some((h) => marked(h, 'wholeBatch'))) continue;
    // A type with a dead-letter step of its own (`onInvalid`) keeps its durable, where it runs.
    if (ownDeadLetters.has(type)) continue;
    folded.set(type, chain);
  }
  return folded;
}

/**
 * NestJS custom transport for JetStream (Nest's NATS transport is core NATS only).
 * `@EventPattern(type)` handlers get a durable pull consumer each (filter `<type>.*`), processed
 * exactly once through the inbox; `@MessagePattern('openq.<service>.<verb>')` handlers answer
 * request/reply in the service's queue group with the `{ ok, data } | { ok: false, error }` envelope.
 * The service's outbox publisher (after commit) and relay (the backstop) run here too.
 */
export class JetStreamServer extends Server implements CustomTransportStrategy {
  protected override readonly logger = new Logger(JetStreamServer.name);
  private readonly runners: ConsumerRunner[] = [];
  private readonly slots: TransactionSlots | undefined;
  private readonly lingerMs: number;
  private readonly role: ConsumerRole;
  /** The durables whose lag is sampled into /metrics. */
  private readonly lagTargets: { stream: string; durable: string }[] = [];
  private readonly subscriptions: Subscription[] = [];
  /** Requests being answered (awaited by `close`). */
  private readonly serving = new Set<Promise<void>>();
  private relay: OutboxRelay | null = null;
  private publisher: OutboxPublisher | null = null;
  private jsm: JetStreamManager | null = null;
  private sampler: NodeJS.Timeout | null = null;
  private sampling: Promise<void> | null = null;
  /** Folded types' old durables being drained: their checks, and the check running for each. */
  private readonly drains = new Set<NodeJS.Timeout>();
  private readonly draining = new Map<string, Promise<void>>();

  constructor(private readonly options: JetStreamServerOptions) {
    super();
    this.slots = transactionSlotsOf(options);
    this.lingerMs = lingerOf(options);
    this.role = consumerRoleOf(options);
  }

  async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      await this.start();
      callback();
    } catch (error) {
      callback(error);
    }
  }

  private async start(): Promise<void> {
    const { nc, service } = this.options;
    // A JetStream cluster that just started (or lost its meta leader) times out for a few seconds.
    const jsm = await whileJetStreamSettles(() => nc.jetstreamManager());
    this.jsm = jsm;
    await whileJetStreamSettles(() => ensureStreams(jsm, this.options.streams));
    for (const durable of await whileJetStreamSettles(() => retireConsumers(jsm, service)))
      this.logger.log(`retired the durable consumer ${durable} (RETIRED_CONSUMERS)`);
    const js = nc.jetstream();
    if (this.options.relay !== false) {
      // Before any consumer or request runs: every commit from now on publishes its own rows.
      this.publisher = new OutboxPublisher(this.options.dataSource, js, {
        service,
        beforePublish: this.options.beforeAfterCommitPublish,
      });
      this.publisher.attach();
    }
    // Several modules may handle one type: the whole chain runs in the message's transaction,
    // after the type's before-transaction step, if it has one.
    const chains = new Map<string, Chain>();
    for (const [pattern, handler] of this.messageHandlers) {
      if (handler.isEventHandler) chains.set(pattern, this.splitChain(pattern, handler));
      else this.subscriptions.push(this.reply(pattern, handler));
    }
    const folded = foldedTypes(
      chains,
      new Set(Object.keys(this.options.onInvalid ?? {})),
      this.options.wholeStream ?? WHOLE_STREAM_CONSUMERS.includes(service),
    );
    // Without a handler of the whole stream, its durable carries the folded types alone.
    if (folded.size > 0 && !chains.has(EVERY_OPENQ_EVENT)) chains.set(EVERY_OPENQ_EVENT, NO_CHAIN);
    const wholeStart = folded.size > 0 ? await this.wholeStreamStart(jsm, folded) : undefined;
    for (const [pattern, chain] of chains) {
      if (folded.has(pattern)) continue;
      const whole = pattern === EVERY_OPENQ_EVENT;
      await this.consume(jsm, js, pattern, chain, whole ? folded : new Map(), whole ? wholeStart : undefined);
    }
    for (const [type, chain] of folded) await this.drainFoldedDurable(jsm, js, type, chain);
    if (this.options.relay !== false) {
      this.relay = new OutboxRelay(this.options.dataSource, js, {
        schema: this.options.schema,
        service,
        databaseUrl: this.options.databaseUrl,
      });
      await this.relay.start();
    }
    const interval = this.options.sampleIntervalMs ?? 10_000;
    if (interval > 0) {
      this.kickSample();
      this.sampler = setInterval(() => this.kickSample(), interval);
      this.sampler.unref();
    }
  }

  /**
   * One durable pull consumer for `pattern`, its chain run in each message's transaction; on the
   * whole stream, the chains of the types folded into it run after it, each for its own type.
   */
  private async consume(
    jsm: JetStreamManager,
    js: JetStreamClient,
    pattern: string,
    { inside, before }: Chain,
    folded: ReadonlyMap<string, Chain>,
    startAfter?: number,
  ): Promise<void> {
    const { service } = this.options;
    const { stream, durable } = await whileJetStreamSettles(() =>
      ensureEventConsumer(jsm, service, pattern, this.options.consumers, startAfter),
    );
    const { ack_floor, config } = await whileJetStreamSettles(() => jsm.consumers.info(stream, durable));
    // A durable made to start later in the stream (an upgrade's whole-stream durable) owes nothing before.
    const ackFloor = Math.max(ack_floor.stream_seq, (config.opt_start_seq ?? 1) - 1);
    const whole = inside.filter((h) => marked(h, 'wholeBatch')).length;
    if (whole > 0 && whole < inside.length)
      throw new Error(`${pattern}: a WHOLE_BATCH handler cannot share its type with per-message ones`);
    const processor = new InboundProcessor(
      this.options.dataSource,
      async (data, ctx) => {
        const context = new JetStreamEventContext([ctx]);
        await this.invokeChain(inside, data, context);
        const more = folded.get(ctx.envelope.type);
        if (more) await this.invokeChain(more.inside, data, context);
      },
      {
        wholeBatch:
          whole > 0
            ? (units) => this.invokeChain(inside, units, new JetStreamBatchContext([units]))
            : undefined,
        prepare: before
          ? (envelope, applied) =>
              this.invoke(before, envelope.data, new JetStreamPrepareContext([envelope, applied]))
          : undefined,
        consumer: durable,
        registry: this.options.eventRegistry,
        onInvalid: this.options.onInvalid?.[pattern],
        order: new SubjectOrder(durable, { jsm, stream, ackFloor }),
      },
    );
    await this.run(js, processor, stream, durable);
    this.lagTargets.push({ stream, durable });
  }

  private async run(js: JetStreamClient, processor: InboundProcessor, stream: string, durable: string) {
    const runner = new ConsumerRunner(js, processor, {
      stream,
      durable,
      concurrency: this.options.concurrency ?? 16,
      batchSize: this.options.batchSize,
      slots: this.slots,
      lingerMs: this.lingerMs,
      foreground: this.role,
    });
    await runner.start();
    this.runners.push(runner);
    return runner;
  }

  /**
   * Where the whole-stream durable starts if this start makes it while folded types' durables of
   * an earlier version are still there: after the lowest of their ack floors, since their drain
   * applies what they hold. Both paths see what lies between (a folded chain is idempotent by its
   * own keys), and the stream's history is not applied again. Undefined (the stream's beginning)
   * when the durable exists already or no such durable is left.
   */
  private async wholeStreamStart(
    jsm: JetStreamManager,
    folded: ReadonlyMap<string, Chain>,
  ): Promise<number | undefined> {
    const info = (type: string) =>
      whileJetStreamSettles(() =>
        consumerInfoOrNull(jsm, STREAMS[streamOfType(type)].name, durableName(this.options.service, type)),
      );
    if (await info(EVERY_OPENQ_EVENT)) return undefined;
    const floors: number[] = [];
    for (const type of folded.keys()) {
      const old = await info(type);
      if (old) floors.push(old.ack_floor.stream_seq);
    }
    return floors.length > 0 ? Math.min(...floors) : undefined;
  }

  /**
   * A type folded into the whole-stream durable may still have the durable of its own an earlier
   * version made (docs/decisions.md, "A service's types ride its whole-stream durable"): what it
   * holds up to the stream's last message now is applied by its chain under its own name, what
   * comes after is acked without effect (the whole-stream durable applies it), and once its ack
   * floor passes that point it is deleted. A message on both paths is applied by each: a folded
   * chain's effects are idempotent by their own keys.
   */
  private async drainFoldedDurable(
    jsm: JetStreamManager,
    js: JetStreamClient,
    type: string,
    { inside }: Chain,
  ): Promise<void> {
    const stream = STREAMS[streamOfType(type)].name;
    const durable = durableName(this.options.service, type);
    const info = await whileJetStreamSettles(() => consumerInfoOrNull(jsm, stream, durable));
    if (!info) return;
    const until = (await whileJetStreamSettles(() => jsm.streams.info(stream))).state.last_seq;
    const processor = new InboundProcessor(
      this.options.dataSource,
      async (data, ctx) => {
        if (ctx.streamSeq <= until) await this.invokeChain(inside, data, new JetStreamEventContext([ctx]));
      },
      {
        consumer: durable,
        registry: this.options.eventRegistry,
        order: new SubjectOrder(durable, { jsm, stream, ackFloor: info.ack_floor.stream_seq }),
      },
    );
    // Another replica may have finished the drain and deleted it in between: nothing left to do.
    const runner = await this.run(js, processor, stream, durable).catch((error: unknown) =>
      isNotFound(error) ? null : Promise.reject(error),
    );
    if (!runner) return;
    this.logger.log(`draining ${durable} up to stream sequence ${until}: ${type} rides the whole stream`);
    const drained = async (): Promise<boolean> => {
      const now = await consumerInfoOrNull(jsm, stream, durable);
      return (
        !now || now.ack_floor.stream_seq >= until || (now.num_pending === 0 && now.num_ack_pending === 0)
      );
    };
    const timer = setInterval(() => {
      if (this.draining.has(durable)) return;
      const check = drained()
        .then(async (done) => {
          if (!done) return;
          clearInterval(timer);
          this.drains.delete(timer);
          await runner.stop();
          this.runners.splice(this.runners.indexOf(runner), 1);
          await jsm.consumers
            .delete(stream, durable)
            .catch((error: unknown) => (isNotFound(error) ? false : Promise.reject(error)));
          this.logger.log(`drained and deleted ${durable}`);
        })
        .catch((error: unknown) => this.logger.warn(`draining ${durable}: ${String(error)}`))
        .finally(() => this.draining.delete(durable));
      this.draining.set(durable, check);
    }, DRAIN_CHECK_MS);
    this.drains.add(timer);
  }

  private kickSample(): void {
    this.sampling ??= this.sample().finally(() => {
      this.sampling = null;
    });
  }

  /**
   * Consumer lag (`num_pending`, `num_ack_pending`, `num_redelivered` of each durable) and the
   * outbox backlog into the process's metrics. A failed sample leaves the previous values.
   */
  async sample(): Promise<void> {
    const jsm = this.jsm;
    if (!jsm) return;
    const m = messagingMetrics;
    for (const stream of Object.values(STREAMS).map((s) => s.name)) {
      try {
        await jsm.streams.info(stream);
        m.streamPresent().set({ stream }, 1);
      } catch (error) {
        if (isNotFound(error)) m.streamPresent().set({ stream }, 0);
        this.logger.debug(`could not sample stream ${stream}: ${String(error)}`);
      }
    }
    for (const { stream, durable } of this.lagTargets) {
      try {
        const info = await jsm.consumers.info(stream, durable);
        m.consumerPresent().set({ consumer: durable, stream }, 1);
        m.consumerPending().set({ consumer: durable }, info.num_pending);
        m.consumerAckPending().set({ consumer: durable }, info.num_ack_pending);
        m.consumerRedelivered().set({ consumer: durable }, info.num_redelivered);
      } catch (error) {
        // Deleted by hand, or its stream was: nothing is delivered to the service until it restarts.
        if (isNotFound(error)) m.consumerPresent().set({ consumer: durable, stream }, 0);
        this.logger.debug(`could not sample consumer ${durable}: ${String(error)}`);
      }
    }
    try {
      m.outboxBacklog().set({ service: this.options.service }, await outboxBacklog(this.options.dataSource));
    } catch (error) {
      this.logger.debug(`could not sample the outbox backlog: ${String(error)}`);
    }
  }

  get outboxRelay(): OutboxRelay | null {
    return this.relay;
  }

  get outboxPublisher(): OutboxPublisher | null {
    return this.publisher;
  }

  get consumerRunners(): readonly ConsumerRunner[] {
    return this.runners;
  }

  private reply(subject: string, handler: MessageHandler): Subscription {
    const verb = subject.slice(requestSubject(this.options.service, '').length);
    return this.options.nc.subscribe(subject, {
      queue: this.options.service,
      callback: (err, msg) => {
        if (err) return;
        const serve = () => this.serve(subject, verb, handler, msg);
        const serving: Promise<void> = (
          this.role.role === 'foreground' ? asForeground(this.role.work, serve) : serve()
        )
          .catch((error: unknown) => this.logger.warn(`could not answer ${subject}: ${String(error)}`))
          .finally(() => this.serving.delete(serving));
        this.serving.add(serving);
      },
    });
  }

  /** One request as a unit of work: the caller's correlation id and trace context, its latency by verb. */
  private async serve(subject: string, verb: string, handler: MessageHandler, msg: Msg): Promise<void> {
    const started = performance.now();
    const read = natsHeaderReader(msg.headers);
    const reply = await runInScope(
      read,
      read(CORRELATION_HEADER) ?? null,
      { name: subject, kind: 'server', attributes: { 'rpc.method': verb } },
      async (scope) => {
        const answered = await this.answer(subject, verb, handler, msg);
        if (!answered.ok) scope.span?.setAttribute('openq.status_code', answered.error.statusCode);
        return answered;
      },
    );
    messagingMetrics
      .requestDuration()
      .observe(
        { service: this.options.service, verb, status: reply.ok ? 'ok' : String(reply.error.statusCode) },
        secondsSince(started),
      );
    msg.respond(encodeJson(reply));
  }

  private async answer(
    subject: string,
    verb: string,
    handler: MessageHandler,
    msg: Msg,
  ): Promise<Reply<unknown>> {
    const decoded = decodeJson(msg.data);
    if (!decoded.ok) return errorReply(400, 'corpo_invalido', 'request is not JSON');
    let payload = decoded.value;
    if (this.options.commandRegistry?.get(subject)) {
      const checked = this.options.commandRegistry.validate(subject, payload);
      if (!checked.ok)
        return errorReply(
          400,
          checked.reason === 'payload_invalido' ? 'corpo_invalido' : checked.reason,
          checked.message,
        );
      payload = checked.value;
    }
    try {
      const result = await this.invoke(handler, payload, new JetStreamRequestContext([msg]));
      if (isRefusal(result)) {
        const { statusCode, reason, message, details } = result;
        return { ok: false, error: { statusCode, reason, message, ...(details ?? {}) } };
      }
      return okReply(result);
    } catch (error) {
      if (isOverloaded(error)) {
        // More requests wait for this service's transactions than it keeps: nothing was taken,
        // and the caller is told when to come back (SPEC §11.6) instead of timing out.
        return {
          ok: false,
          error: {
            statusCode: 503,
            reason: 'sobrecarregado',
            message: error.message,
            retryAfterSeconds: error.retryAfterSeconds,
          },
        };
      }
      if (isRetryLater(error)) {
        // The database or a service this one needs is restarting, overloaded or unreachable:
        // nothing was committed, and the same request may succeed in a moment, so the caller is
        // told to retry, not "internal error".
        const text = error instanceof Error ? error.message : String(error);
        this.logger.warn(`openq.${this.options.service}.${verb}: unavailable: ${text}`);
        return errorReply(
          503,
          'servico_indisponivel',
          isTransientDbError(error)
            ? `the ${this.options.service} service cannot reach its database right now; try again`
            : `the ${this.options.service} service cannot reach a service it needs right now; try again`,
        );
      }
      this.logger.error(
        `openq.${this.options.service}.${verb} failed: ${error instanceof Error ? error.stack : String(error)}`,
      );
      return errorReply(500, 'erro_interno', 'the service failed to handle the request');
    }
  }

  private async invokeChain(handlers: MessageHandler[], data: unknown, ctx: BaseRpcContext): Promise<void> {
    for (const handler of handlers) await this.invoke(handler, data, ctx);
  }

  /** A type's handlers: those run in the transaction, and its before-transaction step. */
  private splitChain(pattern: string, head: MessageHandler): Chain {
    const inside: MessageHandler[] = [];
    const before: MessageHandler[] = [];
    for (let handler: MessageHandler | undefined = head; handler;) {
      (marked(handler, 'beforeTransaction') ? before : inside).push(handler);
      const next: MessageHandler | undefined = handler.next;
      // Nest's wrapper of an event handler also calls the handlers chained after it (and
      // returns both results joined): unlinked, each runs once, when this transport calls it.
      handler.next = undefined;
      handler = next;
    }
    if (before.length > 1) throw new Error(`${pattern}: more than one BEFORE_TRANSACTION step`);
    return { inside, before: before[0] ?? null };
  }

  private async invoke(handler: MessageHandler, data: unknown, ctx: BaseRpcContext): Promise<unknown> {
    const out = await handler(data, ctx);
    return isObservable(out) ? lastValueFrom(out, { defaultValue: undefined }) : out;
  }

  async close(): Promise<void> {
    if (this.sampler) clearInterval(this.sampler);
    this.sampler = null;
    await this.sampling?.catch(() => undefined);
    for (const sub of this.subscriptions.splice(0)) sub.unsubscribe();
    for (const timer of this.drains) clearInterval(timer);
    this.drains.clear();
    await Promise.allSettled([...this.draining.values()]);
    // Requests already taken are answered before the connection and the database close.
    await Promise.allSettled([...this.serving]);
    await Promise.all(this.runners.splice(0).map((r) => r.stop()));
    // What was committed is published before the connection closes (the relay covers the rest).
    await this.publisher?.detach();
    await this.relay?.stop();
  }

  on(): void {
    // connection status events are observed through the NATS connection itself
  }

  unwrap<T>(): T {
    return this.options.nc as T;
  }
}

/** The JetStream API's "stream not found" / "consumer not found" (404), as opposed to a timeout. */
function isNotFound(error: unknown): boolean {
  return (error as { api_error?: { code?: number } } | null)?.api_error?.code === 404;
}
