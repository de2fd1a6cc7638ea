/**
 * The examples of the published OpenAPI document (data-contracts/openapi.json): every response with a body has an
 * example in every media type, every error response has one per error code it may carry, and every example (and
 * every parameter example) is valid against the schema beside it, with Ajv (JSON Schema 2020-12) as the other
 * contract tests validate real answers.
 */
import { ERROR_CODES } from '../../data-contracts/constants';
import {
  type Doc,
  jsonPointer,
  OPENAPI_DOC_ID,
  openapiAjv,
  openapiDoc,
  openapiValidator,
} from '../helpers/openapi-ajv';

/** One example of the document: where it is, its value, and the JSON Pointer of the schema it must match. */
interface Example {
  at: string;
  value: unknown;
  schemaPointer: string;
}

/** The examples (`example`, or each of `examples`) of the object at `base`, against the schema at `base/schema`. */
function examplesAt(base: string[], holder: Doc): Example[] {
  const schemaPointer = `${OPENAPI_DOC_ID}#/${jsonPointer([...base, 'schema'])}`;
  const found: Example[] = [];
  if ('example' in holder) found.push({ at: jsonPointer(base), value: holder.example, schemaPointer });
  for (const [name, example] of Object.entries((holder.examples ?? {}) as Record<string, Doc>)) {
    found.push({ at: `${jsonPointer(base)} (${name})`, value: example.value, schemaPointer });
  }
  return found;
}

/** Every response object of the document: the operations' own and the components', with their pointer. */
function responses(): { base: string[]; response: Doc; status: string }[] {
  const own = Object.entries(openapiDoc.paths as Record<string, Doc>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => !method.startsWith('x-'))
      .flatMap(([method, operation]) =>
        Object.entries((operation as Doc).responses as Record<string, Doc>)
          .filter(([, response]) => response.$ref === undefined)
          .map(([status, response]) => ({ base: ['paths', path, method, 'responses', status], response, status })),
      ),
  );
  const components = Object.entries(openapiDoc.components.responses as Record<string, Doc>).map(([name, response]) => ({
    base: ['components', 'responses', name],
    response,
    status: name,
  }));
  return [...own, ...components];
}

/** Every example of a response body, and every parameter example. */
function allExamples(): Example[] {
  const bodies = responses().flatMap(({ base, response }) =>
    Object.entries((response.content ?? {}) as Record<string, Doc>).flatMap(([type, media]) =>
      examplesAt([...base, 'content', type], media),
    ),
  );
  const operationParameters = Object.entries(openapiDoc.paths as Record<string, Doc>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => !method.startsWith('x-'))
      .flatMap(([method, operation]) =>
        ((operation as Doc).parameters ?? []).flatMap((parameter: Doc, i: number) =>
          parameter.$ref ? [] : examplesAt(['paths', path, method, 'parameters', String(i)], parameter),
        ),
      ),
  );
  const componentParameters = Object.entries(openapiDoc.components.parameters as Record<string, Doc>).flatMap(
    ([name, parameter]) => examplesAt(['components', 'parameters', name], parameter),
  );
  return [...bodies, ...operationParameters, ...componentParameters];
}

describe('the examples of the OpenAPI document', () => {
  it('give every response with a body an example in every media type; only a 304 has no body', () => {
    const missing: string[] = [];
    for (const { base, response } of responses()) {
      const content = (response.content ?? {}) as Record<string, Doc>;
      if (Object.keys(content).length === 0) {
        expect({ at: jsonPointer(base), body: 'none' }).toEqual({
          at: expect.stringMatching(/NotModified|\/304$/),
          body: 'none',
        });
      }
      for (const [type, media] of Object.entries(content)) {
        if (examplesAt([...base, 'content', type], media).length === 0) missing.push(`${jsonPointer(base)} ${type}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('give every error response one example per code it may carry, so every code has one', () => {
    const shown = new Set<string>();
    for (const [name, response] of Object.entries(openapiDoc.components.responses as Record<string, Doc>)) {
      const media = response.content?.['application/json'];
      if (media === undefined) continue;
      const codes = media.schema.allOf[1].properties.code.enum as string[];
      expect({ name, examples: Object.keys(media.examples ?? {}).sort() }).toEqual({
        name,
        examples: [...codes].sort(),
      });
      for (const [code, example] of Object.entries(media.examples as Record<string, Doc>)) {
        expect(example.value.code).toBe(code);
        shown.add(code);
      }
    }
    expect([...shown].sort()).toEqual([...ERROR_CODES].sort());
  });

  it('are each valid against the schema beside it', () => {
    const examples = allExamples();
    expect(examples.length).toBeGreaterThan(30);
    const invalid: string[] = [];
    for (const example of examples) {
      const validate = openapiValidator(example.schemaPointer);
      if (!validate(example.value)) invalid.push(`${example.at}: ${openapiAjv.errorsText(validate.errors)}`);
    }
    expect(invalid).toEqual([]);
  });

  it('catch an example that does not match its schema (the check can fail)', () => {
    const pointerOf = `${OPENAPI_DOC_ID}#/${jsonPointer(['components', 'responses', 'NotFound', 'content', 'application/json', 'schema'])}`;
    const validate = openapiValidator(pointerOf);
    expect(validate({ error: 'x', code: 'not_found' })).toBe(true);
    expect(validate({ error: 'x', code: 'invalid_key' })).toBe(false);
    expect(validate({ error: 'x', code: 'not_found', stray: 1 })).toBe(false);
  });
});
