import { ProviderViews } from '../../../../lambdas/core/present-provider';
import { FAKE_VERTICAL_ROWS } from '../../../helpers/api-fake-deps';

const row = Object.freeze({ ...(FAKE_VERTICAL_ROWS[0] as (typeof FAKE_VERTICAL_ROWS)[number]) });

describe('ProviderViews', () => {
  it('shares one frozen view per (frozen row, tier, publish_tier) and keeps the variants apart', () => {
    const views = new ProviderViews();
    const free = views.present(row, 'free', false);
    expect(Object.isFrozen(free)).toBe(true);
    expect(views.present(row, 'free', false)).toBe(free);
    expect(views.present(row, 'paid', false)).not.toBe(free);
    expect(views.present(row, 'free', true)).not.toBe(free);
  });

  it('does not remember a view of a row that is not frozen', () => {
    const views = new ProviderViews();
    const open = { ...row };
    expect(views.present(open, 'free', false)).not.toBe(views.present(open, 'free', false));
  });

  it('builds equal views again after clear, and two instances share nothing', () => {
    const views = new ProviderViews();
    const first = views.present(row, 'paid', true);
    views.clear();
    const again = views.present(row, 'paid', true);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(new ProviderViews().present(row, 'paid', true)).not.toBe(again);
  });
});
