import { BadRequestException, HttpException, NotFoundException, type ArgumentsHost } from '@nestjs/common';
import { AllExceptionsFilter, errorBodyOf } from './http-errors';

const httpError = (statusCode: number, reason: string, message: string, extra: object = {}) =>
  new HttpException({ ...extra, statusCode, reason, message }, statusCode);

describe('errorBodyOf', () => {
  it('keeps our own errors as they are, extra fields included', () => {
    const error = httpError(409, 'gate_aguarda_decisao', 'the cycle waits on open questions', {
      questionIds: ['q1'],
    });
    expect(errorBodyOf(error)).toEqual({
      statusCode: 409,
      reason: 'gate_aguarda_decisao',
      message: 'the cycle waits on open questions',
      questionIds: ['q1'],
    });
  });

  it.each<[string, unknown, { statusCode: number; reason: string }]>([
    [
      "Nest's unknown route",
      new NotFoundException('Cannot GET /nope'),
      { statusCode: 404, reason: 'rota_nao_encontrada' },
    ],
    [
      'a body over the limit (Fastify → Nest)',
      new HttpException('Request body is too large', 413),
      { statusCode: 413, reason: 'corpo_grande_demais' },
    ],
    [
      'broken JSON',
      new BadRequestException("Body is not valid JSON but content-type is set to 'application/json'"),
      { statusCode: 400, reason: 'corpo_invalido' },
    ],
    [
      'an unsupported media type',
      new HttpException('Unsupported Media Type', 415),
      { statusCode: 415, reason: 'tipo_de_conteudo_nao_suportado' },
    ],
    [
      'a raw Fastify error',
      Object.assign(new Error('Body cannot be empty'), { statusCode: 400 }),
      { statusCode: 400, reason: 'corpo_invalido' },
    ],
  ])('gives %s a stable reason', (_what, exception, expected) => {
    const body = errorBodyOf(exception);
    expect(body).toMatchObject(expected);
    expect(Object.keys(body).sort()).toEqual(['message', 'reason', 'statusCode']);
    expect(typeof body.message).toBe('string');
  });

  it('answers anything unexpected with 500 erro_interno, leaking nothing', () => {
    const body = errorBodyOf(new Error('password=hunter2 at /srv/app/db.ts:42'), 'corr-1');
    expect(body).toEqual({
      statusCode: 500,
      reason: 'erro_interno',
      message: 'internal error (correlation id corr-1)',
    });
    expect(errorBodyOf('a string thrown')).toMatchObject({ statusCode: 500, reason: 'erro_interno' });
  });

  it('does not pass on the message of a framework 500 either', () => {
    expect(errorBodyOf(new HttpException('driver exploded: ECONNRESET 10.0.0.5', 500))).toEqual({
      statusCode: 500,
      reason: 'erro_interno',
      message: 'internal error',
    });
  });
});

describe('AllExceptionsFilter', () => {
  it('writes the body with its status', () => {
    const sent: { status?: number; body?: unknown } = {};
    const reply = {
      sent: false,
      status(code: number) {
        sent.status = code;
        return this;
      },
      header() {
        return this;
      },
      send(body: unknown) {
        sent.body = body;
        return this;
      },
    };
    const host = {
      switchToHttp: () => ({ getResponse: () => reply, getRequest: () => ({ id: 'c1' }) }),
    } as unknown as ArgumentsHost;
    new AllExceptionsFilter().catch(httpError(403, 'papel_insuficiente', 'needs developer'), host);
    expect(sent).toEqual({
      status: 403,
      body: { statusCode: 403, reason: 'papel_insuficiente', message: 'needs developer' },
    });
  });

  it('says when to come back as Retry-After, and keeps it in the body, for an overloaded service', () => {
    const sent: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
    const reply = {
      sent: false,
      status(code: number) {
        sent.status = code;
        return this;
      },
      header(name: string, value: string) {
        sent.headers[name] = value;
        return this;
      },
      send(body: unknown) {
        sent.body = body;
        return this;
      },
    };
    const host = {
      switchToHttp: () => ({ getResponse: () => reply, getRequest: () => ({ id: 'c1' }) }),
    } as unknown as ArgumentsHost;
    new AllExceptionsFilter().catch(
      httpError(503, 'sobrecarregado', 'declarations: too many requests are waiting', {
        retryAfterSeconds: 1,
      }),
      host,
    );
    expect(sent.status).toBe(503);
    expect(sent.headers['retry-after']).toBe('1');
    expect(sent.body).toEqual({
      statusCode: 503,
      reason: 'sobrecarregado',
      message: 'declarations: too many requests are waiting',
      retryAfterSeconds: 1,
    });
  });
});
