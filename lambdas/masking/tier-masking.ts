/**
 * Tier masking: what each tier may see of a provider. Pure functions that return new objects and never touch
 * their input (Powertools data-masking `erase` semantics).
 *
 * - free: every paid field (`certification`, `license`, `fda`, `price`) becomes a LockedField;
 * - paid: the record as is (a copy).
 * `oig` and the identity fields are free on every tier.
 */
import { SIGNALS, type Tier } from '../../data-contracts/constants';
import { lockedField } from '../../data-contracts/rows';
import type { IdentityProvider, Provider } from '../../data-contracts/types';

/** The paid fields of a Provider, in the contract's order. */
export const PAID_FIELDS = SIGNALS;

/**
 * A provider as `tier` may see it.
 * @example maskProvider(full, 'free').price // { locked: true, unlock: 'Paid field: …' }
 */
export function maskProvider(provider: Readonly<Provider>, tier: Tier): Provider {
  // A shallow copy: nothing downstream mutates a response object, and a deep clone per row costs throughput.
  if (tier === 'paid') return { ...provider };
  const masked: Provider = {
    entity_id: provider.entity_id,
    slug: provider.slug,
    vertical: provider.vertical,
    ...(provider.publish_tier !== undefined ? { publish_tier: provider.publish_tier } : {}),
    name: provider.name,
    city: provider.city ?? null,
    state: provider.state ?? null,
    business_mode: provider.business_mode,
    latitude: provider.latitude ?? null,
    longitude: provider.longitude ?? null,
    npi: provider.npi ?? null,
    certification: lockedField(),
    license: lockedField(),
    fda: lockedField(),
    ...(provider.oig !== undefined ? { oig: { ...provider.oig } } : {}),
    price: lockedField(),
  };
  return masked;
}

/**
 * An identity row for any tier: the identity layer never carries a paid signal, so its paid fields are always
 * locked, whatever the input says.
 */
export function maskIdentityProvider(provider: Readonly<IdentityProvider>): IdentityProvider {
  return {
    ...provider,
    oig: { ...provider.oig },
    certification: lockedField(),
    license: lockedField(),
    fda: lockedField(),
    price: lockedField(),
  };
}
