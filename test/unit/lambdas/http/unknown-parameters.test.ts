import fc from 'fast-check';
import { ApiError } from '../../../../lambdas/core/api-error';
import { closestParameter, editDistance } from '../../../../lambdas/core/closest-name';
import { assertKnownParameters } from '../../../../lambdas/http/unknown-parameters';

const LIST = ['vertical', 'taxonomy', 'state', 'city', 'business_mode', 'limit', 'offset', 'format', 'include', 'key'];

function refusal(names: string[], allowed: readonly string[] = LIST): ApiError | null {
  try {
    assertKnownParameters(names, allowed);
    return null;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

describe('editDistance', () => {
  it.each([
    ['limit', 'limit', 0],
    ['limt', 'limit', 1],
    ['lmiit', 'limit', 1],
    ['offest', 'offset', 1],
    ['verticle', 'vertical', 2],
    ['zip', 'state', 5],
    ['', 'key', 3],
  ])('is %i edits from %s to %s', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });

  it('is symmetric, zero only between equal names, and one for a single inserted character', () => {
    const name = fc.string({ maxLength: 12 });
    fc.assert(
      fc.property(name, name, (a, b) => {
        const d = editDistance(a, b);
        expect(editDistance(b, a)).toBe(d);
        expect(d === 0).toBe(a === b);
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
      }),
    );
    fc.assert(
      fc.property(name, fc.nat(), fc.string({ minLength: 1, maxLength: 1 }), (a, at, c) => {
        const i = at % (a.length + 1);
        expect(editDistance(a, `${a.slice(0, i)}${c}${a.slice(i)}`)).toBe(1);
      }),
    );
  });
});

describe('closestParameter', () => {
  it.each([
    ['limt', 'limit'],
    ['LIMIT', 'limit'],
    ['Vertical', 'vertical'],
    ['BUSINESS_MODE', 'business_mode'],
    ['businessmode', 'business_mode'],
    ['business-mode', 'business_mode'],
    ['offest', 'offset'],
    ['verticle', 'vertical'],
    ['formt', 'format'],
    ['kye', 'key'],
    ['taxonmy', 'taxonomy'],
  ])('suggests for %s the name %s', (typo, meant) => {
    expect(closestParameter(typo, LIST)).toBe(meant);
  });

  it.each(['zip', 'page', 'npi', 'sort', 'q', 'x'])('suggests nothing for %s', (name) => {
    expect(closestParameter(name, LIST)).toBeNull();
  });

  it('gives a tie to the name listed first', () => {
    expect(closestParameter('ab', ['ac', 'ad'])).toBe('ac');
  });
});

describe('assertKnownParameters', () => {
  it('lets every allowed name, repeated ones and an empty name through', () => {
    expect(refusal(['vertical', 'limit', 'limit', 'key', ''])).toBeNull();
  });

  it('refuses the first unknown name with 400 invalid_parameter, naming it, with a did-you-mean hint', () => {
    const error = refusal(['vertical', 'limt', 'zip']);
    expect(error?.status).toBe(400);
    expect(error?.toBody()).toEqual({
      error: 'Unknown query parameter `limt`.',
      code: 'invalid_parameter',
      hint: `Did you mean \`limit\`? This route takes: ${LIST.join(', ')}.`,
    });
  });

  it('lists the allowed names without a suggestion when none is close', () => {
    expect(refusal(['zip'])?.toBody().hint).toBe(`This route takes: ${LIST.join(', ')}.`);
    expect(refusal(['x'], ['key'])?.toBody().hint).toBe('This route takes: key.');
  });

  it('shortens a long name and escapes control characters in the message', () => {
    const message = refusal([`${'a'.repeat(60)}\n`])?.message ?? '';
    expect(message).toBe(`Unknown query parameter \`${'a'.repeat(40)}…\`.`);
    expect(refusal(['a\nb'])?.message).toBe('Unknown query parameter `a\\nb`.');
  });
});
