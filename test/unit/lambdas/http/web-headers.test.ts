import fc from 'fast-check';
import { chooseCoding } from '../../../../lambdas/http/compression';
import { requestIdOf } from '../../../../lambdas/http/request-id';

describe('chooseCoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['BR;Q=0, GZIP', 'gzip'],
    ['gzip;q=1.0, br;q=0.9', 'gzip'],
    ['br;q=0.1', 'br'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['gzip;q=0, br;q=0', null],
    ['deflate, compress', null],
  ] as const)('answers %p with %p', (header, coding) => {
    expect(chooseCoding(header)).toBe(coding);
  });

  it('never picks a coding the client gave q=0', () => {
    fc.assert(
      fc.property(fc.constantFrom('br', 'gzip'), fc.string(), (refused, rest) => {
        expect(chooseCoding(`${refused};q=0, ${rest.replace(new RegExp(refused, 'gi'), '')}`)).not.toBe(refused);
      }),
    );
  });
});

describe('requestIdOf', () => {
  it('echoes every well-formed client id', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9._=-]{1,128}$/), (id) => {
        expect(requestIdOf(id, 'gw')).toBe(id);
      }),
    );
  });

  it('replaces a malformed client id with the gateway id, or a new UUID without one', () => {
    fc.assert(
      fc.property(
        fc.string().filter((id) => !/^[A-Za-z0-9._=-]{1,128}$/.test(id)),
        (id) => {
          expect(requestIdOf(id, 'gw-1')).toBe('gw-1');
          expect(requestIdOf(id, undefined)).toMatch(
            /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
          );
        },
      ),
    );
  });
});
