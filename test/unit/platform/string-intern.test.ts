import fc from 'fast-check';
import { intern, StringIntern } from '../../../platform/string-intern';

describe('StringIntern', () => {
  it('gives back a string equal to the one asked, and holds each distinct string once', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 200 }), (values) => {
        const table = new StringIntern(1000);
        for (const value of values) expect(table.intern(value)).toBe(value);
        expect(table.size).toBe(new Set(values).size);
      }),
    );
  });

  it('starts again past its bound, and keeps answering', () => {
    const table = new StringIntern(3);
    for (const value of ['a', 'b', 'c']) table.intern(value);
    expect(table.size).toBe(3);
    expect(table.intern('a')).toBe('a');
    expect(table.size).toBe(3);
    expect(table.intern('d')).toBe('d');
    expect(table.size).toBe(1);
    expect(table.intern(`${'2024'}-03-05`)).toBe('2024-03-05');
  });

  it('has one process-wide table behind intern()', () => {
    const decoded = Buffer.from('2024-03-05', 'utf8').toString('utf8');
    expect(intern(decoded)).toBe('2024-03-05');
    expect(intern('2024-03-05')).toBe(decoded);
  });
});
