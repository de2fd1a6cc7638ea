/** The `notice` texts of responses (the OpenAPI document leaves their content open). */
import { PRICING_URL, VERTICAL_STATUS, type Vertical } from '../../data-contracts/constants';

/** On every free-tier response. */
export function freeTierNotice(): string {
  return `Free tier: identity fields and oig only, for evaluation and non-commercial use. Paid fields are locked; see ${PRICING_URL}`;
}

/** On a list of a vertical that is in the enum but not live. */
export function notLiveNotice(vertical: Vertical): string {
  const status = VERTICAL_STATUS[vertical];
  return status === 'unannounced'
    ? `The ${vertical} vertical returns no data.`
    : `The ${vertical} vertical is not live yet (${status}); it returns no data until it is announced.`;
}
