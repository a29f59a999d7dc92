import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import type { EntityManager } from 'typeorm';
import { OutboxWriter } from './outbox';
import {
  CORRELATION_HEADER,
  currentScope,
  enableMessageTracing,
  propagationHeaders,
  runInScope,
  traceHeaders,
  type HeaderReader,
} from './trace-context';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN}-01`;

const headers =
  (values: Record<string, string>): HeaderReader =>
  (name) =>
    values[name];

/** An outbox writer's manager that keeps the INSERT parameters: [eventId, subject, envelope, headers] per row. */
function capturingManager(): {
  manager: EntityManager;
  rows: () => { envelope: Record<string, unknown>; headers: Record<string, string> }[];
} {
  const params: unknown[][] = [];
  const manager = {
    query: async (_sql: string, values: unknown[]) => void params.push(values),
  } as unknown as EntityManager;
  return {
    manager,
    rows: () =>
      params.map((p) => ({ envelope: JSON.parse(p[2] as string), headers: JSON.parse(p[3] as string) })),
  };
}

async function writeOne(manager: EntityManager): Promise<void> {
  const outbox = new OutboxWriter(manager);
  outbox.event('question.test_ponged', 'p1', { n: 1 });
  await outbox.flush();
}

describe('message scope with tracing off (the default)', () => {
  it('passes the incoming traceparent on unchanged and gives the correlation id to requests and events', async () => {
    const { manager, rows } = capturingManager();
    await runInScope(
      headers({ traceparent: TRACEPARENT, tracestate: 'k=v' }),
      'corr-1',
      { name: 'x', kind: 'consumer' },
      async (scope) => {
        expect(scope.span).toBeNull();
        expect(traceHeaders()).toEqual({ traceparent: TRACEPARENT, tracestate: 'k=v' });
        expect(propagationHeaders()).toEqual({
          [CORRELATION_HEADER]: 'corr-1',
          traceparent: TRACEPARENT,
          tracestate: 'k=v',
        });
        await writeOne(manager);
      },
    );
    expect(rows()[0]).toMatchObject({
      envelope: { correlationId: 'corr-1' },
      headers: { traceparent: TRACEPARENT },
    });
    expect(currentScope()).toBeUndefined();
  });

  it('drops an invalid traceparent, and outside any scope adds nothing', async () => {
    await runInScope(
      headers({ traceparent: 'not-a-trace' }),
      null,
      { name: 'x', kind: 'server' },
      async () => {
        expect(propagationHeaders()).toEqual({});
      },
    );
    const { manager, rows } = capturingManager();
    await writeOne(manager);
    const [row] = rows();
    expect(row!.headers).toEqual({});
    expect(row!.envelope.correlationId).toBe(row!.envelope.eventId);
  });

  it('lets an explicit origin win over the scope', async () => {
    const { manager, rows } = capturingManager();
    await runInScope(headers({}), 'from-scope', { name: 'x', kind: 'server' }, async () => {
      const outbox = new OutboxWriter(manager, { correlationId: 'explicit', causationId: null });
      outbox.event('question.test_ponged', 'p1', {});
      await outbox.flush();
    });
    expect(rows()[0]!.envelope.correlationId).toBe('explicit');
  });
});

describe('message scope with tracing on', () => {
  const exporter = new tracing.InMemorySpanExporter();
  const processor = new tracing.SimpleSpanProcessor(exporter);
  const sdk = new NodeSDK({
    spanProcessors: [processor],
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  /** Spans are exported once the resource's async attributes (host, process) are known. */
  const finished = async () => {
    await processor.forceFlush();
    return exporter.getFinishedSpans();
  };

  beforeAll(() => {
    sdk.start();
    enableMessageTracing(true);
  });
  afterAll(async () => {
    enableMessageTracing(false);
    await sdk.shutdown();
  });
  beforeEach(() => exporter.reset());

  it('handles the work in a child span of the caller and passes the child’s context on', async () => {
    const { manager, rows } = capturingManager();
    let passedOn = '';
    await runInScope(
      headers({ traceparent: TRACEPARENT }),
      'corr-2',
      { name: 'agent.test.ping process', kind: 'consumer' },
      async () => {
        passedOn = propagationHeaders().traceparent ?? '';
        await writeOne(manager);
      },
    );
    const [span] = await finished();
    expect(span!.name).toBe('agent.test.ping process');
    expect(span!.spanContext().traceId).toBe(TRACE_ID);
    expect(span!.parentSpanContext?.spanId).toBe(PARENT_SPAN);
    expect(span!.attributes['openq.correlation_id']).toBe('corr-2');
    // The outbox row and any request carry this span as the parent of what follows.
    expect(passedOn).toBe(`00-${TRACE_ID}-${span!.spanContext().spanId}-01`);
    expect(rows()[0]!.headers.traceparent).toBe(passedOn);
  });

  it('starts a trace when the work came without one, and marks a failure', async () => {
    await expect(
      runInScope(headers({}), null, { name: 'openq.questions.answer', kind: 'server' }, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const [span] = await finished();
    expect(span!.parentSpanContext).toBeUndefined();
    expect(span!.status.code).toBe(2); // ERROR
    expect(span!.events[0]?.name).toBe('exception');
  });
});
