import { HttpException } from '@nestjs/common';
import { refuseCrossSiteWrite } from './user-auth.guard';

const req = (method: string, headers: Record<string, string>) => ({ method, headers });

describe('refuseCrossSiteWrite', () => {
  it.each([
    ['a GET with the cookie', req('GET', { cookie: 'openq_token=x' })],
    [
      'a JSON POST with the cookie',
      req('POST', { cookie: 'openq_token=x', 'content-type': 'application/json; charset=utf-8' }),
    ],
    ['a bodyless POST with the cookie', req('POST', { cookie: 'openq_token=x' })],
    [
      'a form POST with a bearer header',
      req('POST', { authorization: 'Bearer t', 'content-type': 'application/x-www-form-urlencoded' }),
    ],
  ])('lets through %s', (_name, request) => {
    expect(() => refuseCrossSiteWrite(request)).not.toThrow();
  });

  it.each(['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain'])(
    'refuses a cookie-authenticated %s write (what a foreign HTML form can send)',
    (type) => {
      try {
        refuseCrossSiteWrite(req('POST', { cookie: 'openq_token=x', 'content-type': type }));
        throw new Error('not refused');
      } catch (error) {
        expect(error).toBeInstanceOf(HttpException);
        expect((error as HttpException).getStatus()).toBe(403);
        expect((error as HttpException).getResponse()).toMatchObject({ reason: 'origem_nao_confiavel' });
      }
    },
  );
});
