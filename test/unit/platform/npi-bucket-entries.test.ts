import fc from 'fast-check';
import type { ManifestObject, SnapshotManifest } from '../../../data-contracts/layout';
import { LAYOUT_VERSION, npiBucketKey, snapshotPrefix } from '../../../data-contracts/layout';
import { IntegrityError } from '../../../platform/ranged/block-digests';
import { manifestText, parseManifest, parseServingManifest } from '../../../platform/snapshot-protocol';

const ID = '20261101T000000Z-abcdefgh';
const PREFIX = snapshotPrefix(ID);

function bucketObject(bucket: string, n: number): ManifestObject {
  return {
    key: npiBucketKey(ID, bucket),
    bytes: 1000 + n,
    sha256: n.toString(16).padStart(64, '0'),
    kind: 'npi',
    rows: n,
    npi_bucket: bucket,
    block_digests: { bytes: 8 + n, sha256: (n + 1).toString(16).padStart(64, 'f') },
  };
}

/** The other kinds, with keys before and after `npi/` (the manifest is in key order). */
const OTHERS: ManifestObject[] = [
  {
    key: `${PREFIX}identity/classification=dentist/data.parquet`,
    bytes: 10,
    sha256: 'a'.repeat(64),
    kind: 'identity',
    rows: 3,
    classification_key: 'dentist',
  },
  {
    key: `${PREFIX}identity-index/classification=dentist/index.bin`,
    bytes: 11,
    sha256: 'b'.repeat(64),
    kind: 'identity_index',
    classification_key: 'dentist',
    block_digests: { bytes: 40, sha256: 'c'.repeat(64) },
  },
  { key: `${PREFIX}search/state=TX/index.bin`, bytes: 12, sha256: 'd'.repeat(64), kind: 'search', state: 'TX' },
  { key: `${PREFIX}static/coverage.json`, bytes: 13, sha256: 'e'.repeat(64), kind: 'static' },
];

function manifestOf(objects: ManifestObject[]): SnapshotManifest {
  return {
    layout_version: LAYOUT_VERSION,
    snapshot_id: ID,
    created_at: '2026-11-01T00:00:00Z',
    sources: { 'nucc#0': { file: 'nucc.csv', sha256: '0'.repeat(64), read: 1, accepted: 1, rejected: 0 } },
    counts: { identity: 3, tracked: 0, verified: 0, taxonomies: 1, rejects: 0 },
    objects: [...objects].sort((a, b) => a.key.localeCompare(b.key)),
  } as SnapshotManifest;
}

/** Distinct buckets of one width, as the ETL writes them (NPIs start with 1 or 2). */
const buckets = (width: number) =>
  fc.uniqueArray(fc.integer({ min: 10 ** (width - 1), max: 3 * 10 ** (width - 1) - 1 }).map(String), { maxLength: 60 });

/** What a served manifest must give: every object but the buckets, and every bucket by key and by bucket. */
function expectServed(text: string, objects: ManifestObject[]): void {
  const whole = parseManifest(Buffer.from(text), ID);
  const served = parseServingManifest(Buffer.from(text), ID);
  const npi = whole.objects.filter((o) => o.kind === 'npi');
  expect(served.manifest).toEqual({ ...whole, objects: whole.objects.filter((o) => o.kind !== 'npi') });
  expect(served.npiBuckets.size).toBe(npi.length);
  expect(served.npiBuckets.digits).toBe(npi[0]?.npi_bucket?.length ?? null);
  for (const object of npi) {
    expect(served.npiBuckets.keyOf(object.npi_bucket as string)).toBe(object.key);
    expect(served.npiBuckets.get(object.key)).toEqual(object);
    expect(served.npiBuckets.has(object.key)).toBe(true);
  }
  for (const other of objects.filter((o) => o.kind !== 'npi')) expect(served.npiBuckets.has(other.key)).toBe(false);
  expect(served.npiBuckets.all()).toEqual([...npi].sort((a, b) => (a.key < b.key ? -1 : 1)));
}

describe('the NPI buckets of a served manifest', () => {
  it('are each found by bucket and by key, equal to a whole parse, the other objects parsed at once (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).chain((width) => buckets(width)),
        (list) => {
          const objects = [...OTHERS, ...list.map((b, n) => bucketObject(b, n))];
          expectServed(manifestText(manifestOf(objects)), objects);
          // The same manifest indented (as before layout 4) is parsed whole, with the same answers.
          expectServed(JSON.stringify(manifestOf(objects), null, 2), objects);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('answers no bucket the manifest does not list: between, before and after its buckets, or of another width', () => {
    const objects = [...OTHERS, ...['1200', '1300', '1301', '2999'].map((b, n) => bucketObject(b, n))];
    const { npiBuckets } = parseServingManifest(Buffer.from(manifestText(manifestOf(objects))), ID);
    for (const absent of ['1000', '1250', '1302', '2998', '9999', '120', '12000', '']) {
      expect(npiBuckets.keyOf(absent)).toBeUndefined();
    }
    expect(npiBuckets.get(`${PREFIX}npi/bucket=1250/records.npi`)).toBeUndefined();
    expect(npiBuckets.get(`${PREFIX}npi/bucket=1300/other.npi`)).toBeUndefined();
    expect(npiBuckets.get('snapshots/20261102T000000Z-abcdefgh/npi/bucket=1300/records.npi')).toBeUndefined();
    expect(npiBuckets.digits).toBe(4);
  });

  it('leaves a bucket line unread until asked: one that does not parse, or names another bucket, is an integrity error of that bucket only', () => {
    const objects = [...OTHERS, ...['1200', '1300', '1400'].map((b, n) => bucketObject(b, n))];
    const text = manifestText(manifestOf(objects))
      .replace(`"npi_bucket":"1300"`, `"npi_bucket":"1300`) // a torn line
      .replace(`"npi_bucket":"1400"`, `"npi_bucket":"1401"`);
    const { manifest, npiBuckets } = parseServingManifest(Buffer.from(text), ID);
    expect(manifest.objects).toHaveLength(OTHERS.length);
    expect(npiBuckets.get(npiBucketKey(ID, '1200'))).toEqual(objects[OTHERS.length]);
    expect(() => npiBuckets.keyOf('1300')).toThrow(IntegrityError);
    expect(() => npiBuckets.get(npiBucketKey(ID, '1400'))).toThrow(/not the NPI bucket its key names/);
    expect(npiBuckets.keyOf('1200')).toBe(npiBucketKey(ID, '1200'));
  });

  it('parses whole the bucket lines it cannot binary search (out of bucket order, mixed widths), with the same answers', () => {
    const objects = [...OTHERS, ...['1200', '1300', '1400'].map((b, n) => bucketObject(b, n))];
    const text = manifestText(manifestOf(objects));
    const [a, b] = [
      text.indexOf('    {"key":"snapshots/20261101T000000Z-abcdefgh/npi/bucket=1300'),
      text.indexOf('    {"key":"snapshots/20261101T000000Z-abcdefgh/npi/bucket=1400'),
    ];
    const lineA = text.slice(a, text.indexOf('\n', a));
    const lineB = text.slice(b, text.indexOf('\n', b));
    const swapped = text.replace(lineA, '\u0000').replace(lineB, lineA).replace('\u0000', lineB);
    expectServed(swapped, objects);
    const mixed = [...OTHERS, bucketObject('120', 1), bucketObject('1300', 2)];
    expectServed(manifestText(manifestOf(mixed)), mixed);
  });

  it('refuses a bucket key outside the snapshot or unsafe, as a whole parse does', () => {
    const objects = [...OTHERS, bucketObject('1200', 0)];
    const text = manifestText(manifestOf(objects)).replace(`npi/bucket=1200/records.npi"`, `npi/bucket=1200/../x"`);
    expect(() => parseManifest(Buffer.from(text), ID)).toThrow(/unsafe object key/);
    const { npiBuckets } = parseServingManifest(Buffer.from(text), ID);
    expect(() => npiBuckets.keyOf('1200')).toThrow(/unsafe object key/);
  });
});
