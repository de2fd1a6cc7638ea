/**
 * The published OpenAPI document (data-contracts/openapi.json) loaded into one Ajv (JSON Schema 2020-12, with
 * formats), for the tests that validate examples and real answers against it.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import openapi from '../../data-contracts/openapi.json';

/** The `$id` the document is registered under: `${OPENAPI_DOC_ID}#/<pointer>` names any schema of it. */
export const OPENAPI_DOC_ID = 'https://providerfacts.example.com/openapi.json';

// strict: false because the document carries OpenAPI keywords (`openapi`, `paths`, `example`) next to the schemas.
export const openapiAjv = new Ajv2020({ strict: false, allErrors: true });
addFormats(openapiAjv);
openapiAjv.addSchema({ ...(openapi as object), $id: OPENAPI_DOC_ID });

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked by path strings.
export type Doc = Record<string, any>;
export const openapiDoc = openapi as Doc;

/** A JSON Pointer of path segments, each escaped (`~` as `~0`, `/` as `~1`). */
export const jsonPointer = (parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The validator of the schema at `${OPENAPI_DOC_ID}#/<ref>` (compiled once). */
export function openapiValidator(ref: string) {
  return openapiAjv.getSchema(ref) ?? openapiAjv.compile({ $ref: ref });
}
