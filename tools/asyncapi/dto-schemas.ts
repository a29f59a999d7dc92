// The DTO → JSON Schema renderer lives in libs/platform (the gateway's OpenAPI document uses it too).
export {
  SCHEMA_REF_PREFIX,
  caseInsensitive,
  dtoSchemas,
  type DtoSchemas,
  type JsonSchema,
  type LooseNote,
} from '@openq/platform';
