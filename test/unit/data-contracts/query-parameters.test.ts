import { OPERATION_RULES } from '../../../data-contracts/query-parameters';
import { ROUTES } from '../../../data-contracts/routes';

describe('the operation rules derived from the OpenAPI document', () => {
  it('allow each operation its documented query parameters and key, not its header parameters', () => {
    expect(OPERATION_RULES.listProviders.queryParameters).toEqual([
      'vertical',
      'taxonomy',
      'name',
      'postal_code',
      'entity_type',
      'npi',
      'near',
      'radius_miles',
      'state',
      'city',
      'business_mode',
      'limit',
      'offset',
      'format',
      'include',
      'receipt',
      'key',
    ]);
    expect(OPERATION_RULES.getProvider.queryParameters).toEqual(['include', 'key']);
    expect(OPERATION_RULES.getSample.queryParameters).toEqual(['format', 'key']);
    expect(OPERATION_RULES.getCoverage.queryParameters).toEqual(['key']);
    expect(OPERATION_RULES.getOpenApi.queryParameters).toEqual(['key']);
    expect(OPERATION_RULES.getDocs.queryParameters).toEqual(['key']);
    expect(OPERATION_RULES.getDocsScript.queryParameters).toEqual(['key']);
    expect(OPERATION_RULES.listChanges.queryParameters).toEqual([
      'since',
      'kind',
      'npi',
      'vertical',
      'limit',
      'offset',
      'format',
      'receipt',
      'key',
    ]);
    expect(OPERATION_RULES.listNpis.queryParameters).toEqual(['numbers', 'format', 'receipt', 'key']);
    expect(OPERATION_RULES.getReceiptPublicKey.queryParameters).toEqual(['key']);
  });

  it('mark the operations without security as public and the others as keyed', () => {
    const keyed = ROUTES.filter((r) => OPERATION_RULES[r.operation].keyed).map((r) => r.operation);
    expect(keyed).toEqual(['listProviders', 'getProvider', 'listNpis', 'getNpi', 'listChanges']);
  });

  it('cover every route', () => {
    for (const route of ROUTES) expect(OPERATION_RULES[route.operation]).toBeDefined();
  });
});
