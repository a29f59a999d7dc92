import type { IncomingMessage } from 'node:http';
import { messageTracingEnabled } from '@openq/messaging';
import { startTracing, traceHeadersOf } from './tracing';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('tracing', () => {
  it('is off without an OTLP endpoint, and off when the SDK is disabled', async () => {
    expect(await startTracing({ tracing: { endpoint: null } }, 'openq-test')).toBe(false);
    expect(
      await startTracing({ tracing: { endpoint: 'http://127.0.0.1:4318' } }, 'openq-test', {
        OTEL_SDK_DISABLED: 'true',
      }),
    ).toBe(false);
    expect(messageTracingEnabled()).toBe(false);
  });

  it('passes a valid caller traceparent on unchanged while off, and drops an invalid one', () => {
    const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
    expect(traceHeadersOf(req({ traceparent: TRACEPARENT, tracestate: 'k=v' }))).toEqual({
      traceparent: TRACEPARENT,
      tracestate: 'k=v',
    });
    expect(traceHeadersOf(req({ traceparent: 'garbage' }))).toEqual({});
    expect(
      traceHeadersOf(req({ traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' })),
    ).toEqual({});
    expect(traceHeadersOf(req({}))).toEqual({});
  });
});
