import { HttpException } from '@nestjs/common';
import { AnswerQuestionBody, ListOpenQuestionsQuery, ResumeGateBody } from '@openq/contracts';
import { ContractValidationPipe } from './contract-validation.pipe';

const pipe = new ContractValidationPipe();

function refusal(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpException) return error.getResponse();
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('ContractValidationPipe', () => {
  it('returns the validated DTO', () => {
    expect(
      pipe.transform({ resposta: ' sim ' }, { type: 'body', metatype: AnswerQuestionBody }),
    ).toMatchObject({ resposta: 'sim' });
  });

  it('refuses an unknown body field with 400 corpo_invalido naming it', () => {
    expect(
      refusal(() =>
        pipe.transform(
          { resposta: 'x', respondidaPor: 'u2' },
          { type: 'body', metatype: AnswerQuestionBody },
        ),
      ),
    ).toEqual({
      statusCode: 400,
      reason: 'corpo_invalido',
      message: expect.stringMatching(/^respondidaPor: /) as unknown as string,
    });
  });

  it('refuses a missing body', () => {
    expect(
      refusal(() => pipe.transform(undefined, { type: 'body', metatype: AnswerQuestionBody })),
    ).toMatchObject({ reason: 'corpo_invalido' });
  });

  it('reads a missing body as {} where the DTO allows leaving it out, and gives a field its own reason', () => {
    expect(pipe.transform(undefined, { type: 'body', metatype: ResumeGateBody })).toEqual({});
    expect(
      refusal(() =>
        pipe.transform({ override: true, motivo: '' }, { type: 'body', metatype: ResumeGateBody }),
      ),
    ).toMatchObject({ statusCode: 400, reason: 'motivo_invalido' });
  });

  it('refuses a bad query with 400 parametro_invalido and fills defaults', () => {
    expect(
      refusal(() => pipe.transform({ limit: '99' }, { type: 'query', metatype: ListOpenQuestionsQuery })),
    ).toMatchObject({
      statusCode: 400,
      reason: 'parametro_invalido',
      message: expect.stringMatching(/^limit: /) as unknown as string,
    });
    expect(
      pipe.transform(Object.create(null), { type: 'query', metatype: ListOpenQuestionsQuery }),
    ).toMatchObject({ status: 'open', limit: 50 });
  });

  it('leaves params, single query values and custom decorators to their own pipes', () => {
    expect(pipe.transform('x', { type: 'param', metatype: String, data: 'projectId' })).toBe('x');
    expect(pipe.transform('po', { type: 'query', metatype: String, data: 'role' })).toBe('po');
    expect(pipe.transform({ a: 1 }, { type: 'custom', metatype: Object })).toEqual({ a: 1 });
  });
});
