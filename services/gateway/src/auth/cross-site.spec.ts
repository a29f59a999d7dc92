import { HttpException } from '@nestjs/common';
import { refuseCrossSiteWrite } from './user-auth.guard';

const req = (method: string, headers: Record<string, string>) => ({ method, headers });

describe('refuseCrossSiteWrite', () => {
  it.each([
    ['a GET with the cookie', req('GET', { cookie: 'openq_token=x' })],
    [
      "the inbox's JSON POST with the cookie",
      req('POST', {
        cookie: 'openq_token=x',
        'content-type': 'application/json; charset=utf-8',
        'x-openq-csrf': '1',
        'sec-fetch-site': 'same-origin',
      }),
    ],
    [
      "the inbox's bodyless POST with the cookie (no Sec-Fetch-Site: an older browser)",
      req('POST', { cookie: 'openq_token=x', 'x-openq-csrf': '1' }),
    ],
    [
      'a form POST with a bearer header',
      req('POST', { authorization: 'Bearer t', 'content-type': 'application/x-www-form-urlencoded' }),
    ],
    ['a write with no session cookie (authentication answers it: 401)', req('POST', { cookie: 'other=1' })],
  ])('lets through %s', (_name, request) => {
    expect(() => refuseCrossSiteWrite(request)).not.toThrow();
  });

  it.each<[string, Record<string, string>]>([
    ['a form (what a foreign HTML form sends)', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['a multipart form', { 'content-type': 'multipart/form-data; boundary=x', 'x-openq-csrf': '1' }],
    ['a text body', { 'content-type': 'text/plain', 'x-openq-csrf': '1' }],
    ['no body and no header (a no-cors fetch from a sibling origin)', {}],
    ['a JSON body without the header', { 'content-type': 'application/json' }],
    [
      'the header sent from another site',
      { 'x-openq-csrf': '1', 'content-type': 'application/json', 'sec-fetch-site': 'same-site' },
    ],
  ])('refuses a cookie-authenticated write with %s', (_name, headers) => {
    try {
      refuseCrossSiteWrite(req('POST', { cookie: 'openq_token=x', ...headers }));
      throw new Error('not refused');
    } catch (error) {
      expect(error).toBeInstanceOf(HttpException);
      expect((error as HttpException).getStatus()).toBe(403);
      expect((error as HttpException).getResponse()).toMatchObject({ reason: 'origem_nao_confiavel' });
    }
  });
});
