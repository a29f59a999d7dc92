import { IsInt, IsString, MinLength, validateSync } from 'class-validator';
import { validateAs } from './validation';

/* class-validator's rules, looked up once per class (validation-metadata.ts): same answers. */

class Base {
  @IsString() name!: string;
}

describe('memoized validation metadata', () => {
  it('gives the same answers, again and again', () => {
    for (let i = 0; i < 3; i++) {
      expect(validateAs(Base, { name: 'x' }).ok).toBe(true);
      expect(validateAs(Base, { name: 1 })).toMatchObject({ ok: false, field: 'name' });
      expect(validateAs(Base, { name: 'x', extra: 1 })).toMatchObject({ ok: false, field: 'extra' });
    }
  });

  it('sees a class declared after the first validations, and its inherited rules', () => {
    expect(validateAs(Base, { name: 'x' }).ok).toBe(true);
    class Later extends Base {
      @IsInt() n!: number;
    }
    expect(validateAs(Later, { name: 'x', n: 1 }).ok).toBe(true);
    expect(validateAs(Later, { name: 2, n: 1 })).toMatchObject({ ok: false, field: 'name' });
    expect(validateAs(Later, { name: 'x', n: 'one' })).toMatchObject({ ok: false, field: 'n' });
    // The base class is unchanged by its subclass.
    expect(validateAs(Base, { name: 'x', n: 1 })).toMatchObject({ ok: false, field: 'n' });
  });

  it('sees a rule added to a class already validated', () => {
    class Grows {
      @IsString() text!: string;
    }
    expect(validateAs(Grows, { text: '' }).ok).toBe(true);
    MinLength(2)(Grows.prototype, 'text');
    expect(validateAs(Grows, { text: '' })).toMatchObject({ ok: false, field: 'text' });
  });

  it('leaves validations with groups to class-validator', () => {
    class Grouped {
      @IsString({ groups: ['a'] }) a!: string;
      @IsString({ groups: ['b'] }) b!: string;
    }
    const value = Object.assign(new Grouped(), { a: 1, b: 'x' });
    expect(validateSync(value, { groups: ['a'] }).map((e) => e.property)).toEqual(['a']);
    expect(validateSync(value, { groups: ['b'] })).toEqual([]);
  });
});
