import {
  Allow,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { ID_PATTERN, UUID_PATTERN } from '@openq/contracts';

/** Shape check of an inbound envelope before its `data` is validated against its type. */
export class EventEnvelopeDto {
  @Matches(UUID_PATTERN) eventId!: string;
  @IsString() @Matches(/^[a-z_]+(\.[a-z_]+)+$/) type!: string;
  @IsInt() @Min(1) @Max(1000) schemaVersion!: number;
  @IsISO8601() occurredAt!: string;
  @Matches(ID_PATTERN) projectId!: string;
  @IsString() @Matches(/^[A-Za-z0-9_.:-]{1,128}$/) correlationId!: string;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() causationId!: string | null;
  @IsObject() @Allow() data!: Record<string, unknown>;
}

export const ENVELOPE_KEYS = [
  'eventId',
  'type',
  'schemaVersion',
  'occurredAt',
  'projectId',
  'correlationId',
  'causationId',
  'data',
] as const;
