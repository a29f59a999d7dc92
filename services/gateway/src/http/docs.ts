import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Controller, Get, Header, NotFoundException } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiExcludeController, DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { dtoSchemas, PublicRoute } from '@openq/platform';
import { AUTH_COOKIE, SERVICE_TOKEN_HEADER } from '../auth/credentials';

export const SERVICE_TOKEN_SCHEME = 'service-token';
export const COOKIE_SCHEME = 'cookie';

/** OpenAPI document at `/docs-json`; the page at `/docs` (see `DocsController`). */
export function setupOpenApi(app: NestFastifyApplication): void {
  const config = new DocumentBuilder()
    .setTitle('openq gateway')
    .setDescription('The HTTP edge of openq (SPEC §4). Errors are always { statusCode, reason, message }.')
    .setVersion('1')
    // 3.1: its schemas are JSON Schema, so the DTOs' `null`-able fields are said as they validate.
    .setOpenAPIVersion('3.1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .addCookieAuth(AUTH_COOKIE, { type: 'apiKey', in: 'cookie', name: AUTH_COOKIE }, COOKIE_SCHEME)
    .addApiKey({ type: 'apiKey', in: 'header', name: SERVICE_TOKEN_HEADER }, SERVICE_TOKEN_SCHEME)
    .build();
  const document = withBodySchemas(SwaggerModule.createDocument(app, config), bodyClasses(app));
  // No UI through SwaggerModule: it needs @fastify/static, which is not installed.
  SwaggerModule.setup('docs', app, document, { ui: false, raw: ['json'], jsonDocumentUrl: 'docs-json' });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dto = new (...args: any[]) => object;

/** `@ApiBody()`'s metadata key (@nestjs/swagger's DECORATORS.API_PARAMETERS, not exported by path). */
const API_PARAMETERS = 'swagger/apiParameters';

/**
 * [openq] issue #30 the classes every route takes as its body: its `@Body()` parameter's type
 * (what ContractValidationPipe validates), or an `@ApiBody({ type })` where the route reads a
 * form itself (the one-tap page, the development sign-in).
 */
export function bodyClasses(app: Pick<NestFastifyApplication, 'get'>): Dto[] {
  const found = new Set<Dto>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Dto | null;
      if (!controller) continue;
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
          string,
          { index: number }
        >;
        const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, name) ??
          []) as unknown[];
        for (const [key, arg] of Object.entries(args)) {
          const type = types[arg.index];
          if (key.startsWith(`${RouteParamtypes.BODY}:`) && isDto(type)) found.add(type);
        }
        const method = (controller.prototype as Record<string, unknown>)[name];
        const params = (
          typeof method === 'function' ? (Reflect.getMetadata(API_PARAMETERS, method) ?? []) : []
        ) as { in?: string; type?: unknown }[];
        for (const param of params) if (param.in === 'body' && isDto(param.type)) found.add(param.type);
      }
    }
  }
  return [...found];
}

function isDto(type: unknown): type is Dto {
  return typeof type === 'function' && type !== Object && type !== String && type.name !== '';
}

/**
 * @nestjs/swagger names a body's class (`$ref: #/components/schemas/AnswerQuestionBody`) but,
 * without `@ApiProperty` on every field, leaves its schema empty. The schemas are rendered from
 * the same class-validator metadata that validates the body (`dtoSchemas`, the renderer of
 * docs/asyncapi.yaml), nested DTOs included.
 */
export function withBodySchemas(document: OpenAPIObject, classes: readonly Dto[]): OpenAPIObject {
  const { schemas } = dtoSchemas(classes);
  document.components = {
    ...document.components,
    schemas: {
      ...document.components?.schemas,
      ...(schemas as NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>),
    },
  };
  return document;
}

/** swagger-ui-dist ships with @nestjs/swagger; resolved through it rather than as a dependency of ours. */
function swaggerUiDir(): string | null {
  try {
    const swagger = dirname(require.resolve('@nestjs/swagger'));
    return dirname(require.resolve('swagger-ui-dist/package.json', { paths: [swagger] }));
  } catch {
    return null;
  }
}

const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>openq API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/docs-json', dom_id: '#swagger-ui' });`;

/** A Swagger UI page over `/docs-json`, served from swagger-ui-dist's files. */
@PublicRoute()
@ApiExcludeController()
@Controller('docs')
export class DocsController {
  private readonly assetsDir = swaggerUiDir();
  private readonly cache = new Map<string, Buffer>();

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  page(): string {
    return PAGE;
  }

  @Get('init.js')
  @Header('Content-Type', 'application/javascript; charset=utf-8')
  init(): string {
    return INIT;
  }

  @Get('swagger-ui.css')
  @Header('Content-Type', ASSETS['swagger-ui.css']!)
  @Header('Cache-Control', 'public, max-age=86400')
  css(): Buffer {
    return this.asset('swagger-ui.css');
  }

  @Get('swagger-ui-bundle.js')
  @Header('Content-Type', ASSETS['swagger-ui-bundle.js']!)
  @Header('Cache-Control', 'public, max-age=86400')
  bundle(): Buffer {
    return this.asset('swagger-ui-bundle.js');
  }

  private asset(name: string): Buffer {
    if (!this.assetsDir)
      throw new NotFoundException('swagger-ui-dist is not installed; the document is at /docs-json');
    let content = this.cache.get(name);
    if (!content) {
      content = readFileSync(join(this.assetsDir, name));
      this.cache.set(name, content);
    }
    return content;
  }
}
