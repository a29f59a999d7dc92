import 'reflect-metadata';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { OpenqEvent } from '@openq/contracts';
import { ContextEventsController } from '../context.events.controller';
import { CONSUMED_FACT_TYPES, projectFact } from './context-facts';
import { REPLAYED_TYPES } from './replay';

describe('the facts of the context read models', () => {
  it('are consumed live exactly as CONSUMED_FACT_TYPES says (the types the replay must cover)', () => {
    const proto = ContextEventsController.prototype as unknown as Record<string, unknown>;
    const patterns = Object.getOwnPropertyNames(proto)
      .filter((key) => key !== 'constructor')
      .flatMap(
        (key) => (Reflect.getMetadata(PATTERN_METADATA, proto[key] as object) as string[] | undefined) ?? [],
      );
    expect([...patterns].sort()).toEqual([...CONSUMED_FACT_TYPES].sort());
  });

  it('are all replayed: the consumed ones and this service’s own corrections and archives', () => {
    expect([...REPLAYED_TYPES].sort()).toEqual(Object.keys(projectFact).sort());
    expect([...REPLAYED_TYPES].sort()).toEqual(
      [...CONSUMED_FACT_TYPES, OpenqEvent.StoryCorrected, OpenqEvent.StoryArchived].sort(),
    );
  });
});
