import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import { AgentEvent, eventSubject, makeEnvelope, OpenqEvent } from '@openq/contracts';
import { durableOf, enableMessageTracing, encodeJson } from '@openq/messaging';
import { waitFor } from '@openq/testing';
import { headers as natsHeaders } from 'nats';
import { Stack } from '../support/stack';

/*
 * With tracing on, one trace follows an answer across the services: the gateway's HTTP span →
 * the NATS request → the questions service's request span → the outbox rows → the gates' and
 * context's handling spans. (Off, the default, is covered by libs/messaging and libs/platform.)
 */

const P = 'trace1';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

const exporter = new tracing.InMemorySpanExporter();
const processor = new tracing.SimpleSpanProcessor(exporter);
const sdk = new NodeSDK({
  spanProcessors: [processor],
  metricReaders: [],
  logRecordProcessors: [],
  instrumentations: [],
});
let stack: Stack;

beforeAll(async () => {
  // What startTracing does with an OTLP endpoint, with an in-memory exporter instead.
  sdk.start();
  enableMessageTracing(true);
  stack = await Stack.start();
});

afterAll(async () => {
  await stack?.stop();
  enableMessageTracing(false);
  await sdk.shutdown();
});

async function spans(): Promise<tracing.ReadableSpan[]> {
  await processor.forceFlush();
  return exporter.getFinishedSpans();
}

describe('W3C trace context across the services', () => {
  it('follows an answer from the HTTP click to every service that handles its events', async () => {
    const declaredWith = `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`;
    const envelope = makeEnvelope(AgentEvent.QuestionDeclare, P, {
      sessionId: 's1',
      sessionAuthorId: 'ana',
      autor: 'criativo',
      pergunta: 'Traced?',
      sugestao: 'Yes',
      afeta: { regras: [], historias: [], tarefas: [] },
      toolCallId: 'trace-tc-1',
    });
    const h = natsHeaders();
    h.set('traceparent', declaredWith);
    await stack.nc
      .jetstream()
      .publish(eventSubject(envelope.type, P), encodeJson(envelope), { msgID: envelope.eventId, headers: h });
    const [declared] = await stack.events.waitForType<{ questionId: string }>(OpenqEvent.QuestionDeclared, 1);

    const answered = await stack.http(
      'POST',
      `/projects/${P}/open-questions/${declared!.data.questionId}/answer`,
      {
        token: stack.token('ana', P, 'viewer'),
        body: { aceitarSugestao: true },
        headers: { traceparent: `00-${TRACE_ID}-${CLIENT_SPAN}-01`, 'x-correlation-id': 'click-1' },
      },
    );
    expect(answered.status).toBe(200);
    await stack.events.waitForType(OpenqEvent.DecisionRecorded, 1);

    // The answer's trace: HTTP → request → the consumers of question.answered and decision.recorded.
    const consumerSpan = (name: string) =>
      name === 'question.answered process' || name === 'decision.recorded process';
    const groupOf = (s: tracing.ReadableSpan) => String(s.attributes['messaging.consumer.group.name']);
    const handled = (s: tracing.ReadableSpan) => `${s.name} by ${groupOf(s)}`;
    // gates: question.answered; context (its types ride one durable): decision.recorded (it takes
    // the answer from it, issue #14) and question.answered (question quality, issue #33)
    const expected = new Set(
      [
        ['gates', OpenqEvent.QuestionAnswered],
        ['context', OpenqEvent.DecisionRecorded],
        ['context', OpenqEvent.QuestionAnswered],
      ].map(([service, type]) => `${type} process by ${durableOf(service!, type!)}`),
    );
    const inTrace = await waitFor(
      async () => {
        const found = (await spans()).filter((s) => s.spanContext().traceId === TRACE_ID);
        const seen = new Set(found.filter((s) => consumerSpan(s.name)).map(handled));
        return seen.size === expected.size ? found : false;
      },
      { timeoutMs: 15_000, what: 'the answer’s consumer spans in gates and context' },
    );
    const byName = (name: string) => inTrace.filter((s) => s.name === name);
    const [http] = byName('POST /projects/:projectId/open-questions/:questionId/answer');
    const [request] = byName('openq.questions.answer');
    expect(http!.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    expect(request!.parentSpanContext?.spanId).toBe(http!.spanContext().spanId);
    expect(request!.attributes['openq.correlation_id']).toBe('click-1');
    const consumers = inTrace.filter((s) => consumerSpan(s.name));
    for (const consumer of consumers)
      expect(consumer.parentSpanContext?.spanId).toBe(request!.spanContext().spanId);
    expect(new Set(consumers.map(handled))).toEqual(expected);

    // The declaration's trace came from the engine's traceparent, through the outbox to context.
    const declaredTrace = await waitFor(
      async () => {
        const found = (await spans()).filter((s) => s.spanContext().traceId === 'a'.repeat(32));
        return found.some((s) => s.name === 'question.declared process') ? found : false;
      },
      { timeoutMs: 15_000, what: 'context’s span for question.declared' },
    );
    const [declare] = declaredTrace.filter((s) => s.name === 'agent.question.declare process');
    expect(declare!.parentSpanContext?.spanId).toBe('b'.repeat(16));
    const followers = declaredTrace.filter((s) => s.name === 'question.declared process');
    expect(followers.map(groupOf)).toEqual([durableOf('context', OpenqEvent.QuestionDeclared)]);
    for (const f of followers) expect(f.parentSpanContext?.spanId).toBe(declare!.spanContext().spanId);
  });
});
