import { HttpException } from '@nestjs/common';
import { replyToHttp } from './reply';

describe('replyToHttp', () => {
  it('returns the data of a successful reply', () => {
    expect(replyToHttp({ ok: true, data: { open: 3 } })).toEqual({ open: 3 });
  });

  it('throws the error of a failed reply with its status and body', () => {
    try {
      replyToHttp({
        ok: false,
        error: { statusCode: 404, reason: 'pergunta_nao_encontrada', message: 'no such question' },
      });
      throw new Error('expected a throw');
    } catch (error) {
      expect(error).toBeInstanceOf(HttpException);
      expect((error as HttpException).getStatus()).toBe(404);
      expect((error as HttpException).getResponse()).toEqual({
        statusCode: 404,
        reason: 'pergunta_nao_encontrada',
        message: 'no such question',
      });
    }
  });

  it('refuses a reply whose status is not an error status', () => {
    expect(() => replyToHttp({ ok: false, error: { statusCode: 200, reason: 'x', message: 'y' } })).toThrow(
      expect.objectContaining({ status: 502 }) as unknown as Error,
    );
  });
});
