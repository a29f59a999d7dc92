import type { ClassConstructor } from 'class-transformer';
import { validateAs, type Validated } from './validation';

/** A versioned event (or command) type and the DTO its `data` must satisfy. */
export interface MessageDefinition<T extends object = object> {
  type: string;
  schemaVersion: number;
  dto: ClassConstructor<T>;
}

export function defineMessage<T extends object>(
  type: string,
  dto: ClassConstructor<T>,
  schemaVersion = 1,
): MessageDefinition<T> {
  return { type, schemaVersion, dto };
}

/** Looks definitions up by type; the messaging layer validates every inbound payload with it. */
export class MessageRegistry {
  private readonly byType = new Map<string, MessageDefinition>();

  constructor(definitions: Iterable<MessageDefinition> = []) {
    for (const d of definitions) this.add(d);
  }

  add(definition: MessageDefinition): this {
    this.byType.set(definition.type, definition);
    return this;
  }

  get(type: string): MessageDefinition | undefined {
    return this.byType.get(type);
  }

  types(): string[] {
    return [...this.byType.keys()];
  }

  validate(type: string, data: unknown): Validated<object> {
    const definition = this.byType.get(type);
    if (!definition)
      return { ok: false, reason: 'tipo_desconhecido', field: 'type', message: `unknown type ${type}` };
    return validateAs(definition.dto, data, 'payload_invalido');
  }
}
