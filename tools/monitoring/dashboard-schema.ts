/**
 * JSON schema of the subset of Grafana's dashboard model (schemaVersion 39) that
 * tools/monitoring/dashboard.ts emits: what Grafana needs to load it, no unknown keys, every
 * target a Prometheus query on the datasource variable, panels on the 24-column grid.
 */
const datasource = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'uid'],
  properties: { type: { const: 'prometheus' }, uid: { const: '${datasource}' } },
} as const;

const gridPos = {
  type: 'object',
  additionalProperties: false,
  required: ['h', 'w', 'x', 'y'],
  properties: {
    h: { type: 'integer', minimum: 1 },
    w: { type: 'integer', minimum: 1, maximum: 24 },
    x: { type: 'integer', minimum: 0, maximum: 23 },
    y: { type: 'integer', minimum: 0 },
  },
} as const;

const target = {
  type: 'object',
  additionalProperties: false,
  required: ['refId', 'datasource', 'expr', 'legendFormat'],
  properties: {
    refId: { type: 'string', pattern: '^[A-Z]$' },
    datasource,
    expr: { type: 'string', minLength: 1 },
    legendFormat: { type: 'string' },
    range: { type: 'boolean' },
    instant: { type: 'boolean' },
    format: { enum: ['time_series', 'table'] },
  },
} as const;

const rowPanel = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'type', 'title', 'collapsed', 'gridPos', 'panels'],
  properties: {
    id: { type: 'integer', minimum: 1 },
    type: { const: 'row' },
    title: { type: 'string', minLength: 1 },
    collapsed: { type: 'boolean' },
    gridPos,
    panels: { type: 'array', maxItems: 0 },
  },
} as const;

const queryPanel = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'type',
    'title',
    'description',
    'datasource',
    'gridPos',
    'fieldConfig',
    'options',
    'targets',
  ],
  properties: {
    id: { type: 'integer', minimum: 1 },
    type: { enum: ['timeseries', 'stat', 'table'] },
    title: { type: 'string', minLength: 1 },
    description: { type: 'string', minLength: 1 },
    datasource,
    gridPos,
    fieldConfig: {
      type: 'object',
      additionalProperties: false,
      required: ['defaults', 'overrides'],
      properties: {
        defaults: {
          type: 'object',
          additionalProperties: false,
          required: ['unit'],
          properties: { unit: { type: 'string', minLength: 1 } },
        },
        overrides: { type: 'array' },
      },
    },
    options: { type: 'object' },
    targets: { type: 'array', minItems: 1, maxItems: 26, items: target },
  },
} as const;

export const DASHBOARD_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  additionalProperties: false,
  required: ['uid', 'title', 'schemaVersion', 'panels', 'templating', 'time'],
  properties: {
    uid: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,40}$' },
    title: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    editable: { type: 'boolean' },
    schemaVersion: { type: 'integer', minimum: 36 },
    version: { type: 'integer' },
    refresh: { type: 'string', pattern: '^[0-9]+[smh]$' },
    time: {
      type: 'object',
      additionalProperties: false,
      required: ['from', 'to'],
      properties: { from: { type: 'string' }, to: { type: 'string' } },
    },
    timezone: { type: 'string' },
    templating: {
      type: 'object',
      additionalProperties: false,
      required: ['list'],
      properties: {
        list: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name', 'type', 'query'],
            properties: {
              name: { const: 'datasource' },
              type: { const: 'datasource' },
              query: { const: 'prometheus' },
            },
          },
          minItems: 1,
          maxItems: 1,
        },
      },
    },
    annotations: { type: 'object' },
    panels: {
      type: 'array',
      minItems: 1,
      items: { oneOf: [rowPanel, queryPanel] },
    },
  },
} as const;
