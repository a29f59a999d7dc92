import { eventSubject } from '../subjects';
import { eventExample } from '../testing/examples';
import { AGENT_EVENT_TYPES } from './agent-events';
import { eventRegistry, makeEvent } from './event-registry';
import { OPENQ_EVENT_TYPES, OpenqEvent } from './openq-events';

describe('eventRegistry', () => {
  it('holds both streams’ events, with no type defined twice', () => {
    const types = eventRegistry.types();
    expect(types).toHaveLength(AGENT_EVENT_TYPES.length + OPENQ_EVENT_TYPES.length);
    expect(new Set(types).size).toBe(types.length);
  });

  it('every type makes a subject-safe subject', () => {
    for (const type of eventRegistry.types()) expect(eventSubject(type, 'proj-1')).toBe(`${type}.proj-1`);
  });
});

describe('makeEvent', () => {
  it('wraps a typed payload in an envelope of the type’s schema version', () => {
    const data = eventExample(OpenqEvent.GateResumed);
    const event = makeEvent(OpenqEvent.GateResumed, 'proj-1', data, {
      correlationId: 'c-1',
      occurredAt: new Date('2026-11-05T12:00:00Z'),
    });
    expect(event).toMatchObject({
      type: 'gate.resumed',
      schemaVersion: 1,
      projectId: 'proj-1',
      correlationId: 'c-1',
      occurredAt: '2026-11-05T12:00:00.000Z',
      data,
    });
    expect(eventRegistry.validate(event.type, event.data).ok).toBe(true);
  });
});
