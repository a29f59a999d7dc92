import { cookieValue, serviceTokenOf, userTokenOf } from './credentials';

describe('userTokenOf', () => {
  it.each([
    [{ authorization: 'Bearer abc.def.ghi' }, 'abc.def.ghi'],
    [{ authorization: 'bearer abc' }, 'abc'],
    [{ authorization: 'Basic dTpw' }, null],
    [{ authorization: 'Bearer ' }, null],
    [{ cookie: 'a=1; openq_token=tok; b=2' }, 'tok'],
    [{ cookie: 'openq_token="quoted"' }, 'quoted'],
    [{ cookie: 'not_openq_token=x' }, null],
    [{ authorization: 'Bearer header', cookie: 'openq_token=cookie' }, 'header'],
    [{}, null],
  ])('%j → %s', (headers, expected) => {
    expect(userTokenOf(headers)).toBe(expected);
  });
});

describe('cookieValue', () => {
  it('decodes percent-encoding and refuses broken encoding', () => {
    expect(cookieValue('x=a%20b', 'x')).toBe('a b');
    expect(cookieValue('x=%E0%A4%A', 'x')).toBeNull();
  });
});

describe('serviceTokenOf', () => {
  it('takes one non-empty header value', () => {
    expect(serviceTokenOf({ 'x-service-token': 'tok' })).toBe('tok');
    expect(serviceTokenOf({ 'x-service-token': '' })).toBeNull();
    expect(serviceTokenOf({})).toBeNull();
  });
});
