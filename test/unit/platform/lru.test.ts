import { setNewest, touch } from '../../../platform/lru';

describe('setNewest and touch', () => {
  it('keep at most max entries, dropping the least recently set or touched first', () => {
    const map = new Map<string, number>();
    for (const [i, key] of ['a', 'b', 'c'].entries()) setNewest(map, key, i, 3);
    expect(touch(map, 'a')).toBe(0);
    setNewest(map, 'd', 3, 3);
    expect([...map.keys()]).toEqual(['c', 'a', 'd']);
    setNewest(map, 'c', 9, 3);
    expect([...map.entries()]).toEqual([
      ['a', 0],
      ['d', 3],
      ['c', 9],
    ]);
    expect(touch(map, 'b')).toBeUndefined();
    setNewest(map, 'e', 4, 1);
    expect([...map.keys()]).toEqual(['e']);
  });
});
