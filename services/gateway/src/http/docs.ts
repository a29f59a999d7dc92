import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Controller, Get, Header, NotFoundException } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiExcludeController, DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { PublicRoute } from '@openq/platform';
import { AUTH_COOKIE, SERVICE_TOKEN_HEADER } from '../auth/credentials';

export const SERVICE_TOKEN_SCHEME = 'service-token';
export const COOKIE_SCHEME = 'cookie';

/** OpenAPI document at `/docs-json`; the page at `/docs` (see `DocsController`). */
export function setupOpenApi(app: NestFastifyApplication): void {
  const config = new DocumentBuilder()
    .setTitle('openq gateway')
    .setDescription('The HTTP edge of openq (SPEC §4). Errors are always { statusCode, reason, message }.')
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .addCookieAuth(AUTH_COOKIE, { type: 'apiKey', in: 'cookie', name: AUTH_COOKIE }, COOKIE_SCHEME)
    .addApiKey({ type: 'apiKey', in: 'header', name: SERVICE_TOKEN_HEADER }, SERVICE_TOKEN_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, config);
  // No UI through SwaggerModule: it needs @fastify/static, which is not installed.
  SwaggerModule.setup('docs', app, document, { ui: false, raw: ['json'], jsonDocumentUrl: 'docs-json' });
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
