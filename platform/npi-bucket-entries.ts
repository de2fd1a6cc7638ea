/**
 * The NPI buckets' entries of a snapshot's manifest, each parsed when a query first reads its bucket.
 *
 * A national manifest lists about 20,000 objects, nearly all of them NPI buckets. Parsing them all, and keeping a map
 * of them, was most of a cold instance's snapshot load at national scale (docs/read-in-place.md), while a query reads
 * the buckets of its own NPIs only. So the API's snapshot load (`parseServingManifest` in ./snapshot-protocol.ts)
 * parses every other object, and of the buckets' lines ({@link scanNpiBucketLines}) finds only where each is: the
 * manifest is written one object per line, in key order (`manifestText`), and a bucket's line starts with its key,
 * `snapshots/<id>/npi/bucket=<digits>/`. A lookup finds its bucket's line by binary search over those digits, then
 * parses and checks it (once); a line that does not parse, or that is not the bucket its key names, is an
 * {@link IntegrityError} (the API's 503), as a block of a data object that does not match its digest is. Lines not
 * in that shape are parsed with the rest of the manifest: only the speed differs.
 */
import { type ManifestObject, NPI_BUCKET_PATTERN } from '../data-contracts/layout';
import { assertSafeKey } from './object-store';
import { IntegrityError } from './ranged/block-digests';

const NEWLINE = 0x0a;
const COMMA = 0x2c;
const SLASH = 0x2f;
const QUOTE = 0x22;
/** The `objects` member of a manifest as manifestText writes it (four spaces before each object), and its end. */
export const OBJECTS_OPEN = '\n  "objects": [\n';
export const OBJECTS_CLOSE = '\n  ]\n}';
const LINE_INDENT = 4;

/** Where a manifest's bucket lines start and end, in bucket order, and their buckets' width. */
export interface ScannedLines {
  starts: Int32Array;
  ends: Int32Array;
  width: number | null;
}

/** How a bucket's line starts (`prefix`: what its key starts with): four spaces, then the object, its key first. */
function bucketLineHead(prefix: string): Buffer {
  return Buffer.from(`    {"key":"${prefix}`, 'latin1');
}

/** The bucket a key names (its digits after `prefix`, up to the next `/`), or null when it names none. */
function bucketOfKey(key: string, prefix: string): string | null {
  const end = key.indexOf('/', prefix.length);
  if (!key.startsWith(prefix) || end < 0) return null;
  const bucket = key.slice(prefix.length, end);
  return NPI_BUCKET_PATTERN.test(bucket) ? bucket : null;
}

/** The NPI bucket objects of one snapshot's manifest: each entry found by its bucket, and parsed, when first read. */
export class NpiBucketEntries {
  /** The width of the snapshot's buckets (digits of the NPI prefix), or null when it has none. */
  readonly digits: number | null;
  private readonly parsed = new Map<string, ManifestObject>();
  /** Bucket -> key, filled as buckets are looked up (a batch of NPIs asks for the same buckets again). */
  private readonly found = new Map<string, string | null>();

  private constructor(
    /** The manifest's bytes, and where the bucket lines start and end (in bucket order). */
    private readonly body: Buffer,
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
    width: number | null,
    private readonly prefix: string,
    /** Entries parsed already (not in `starts`). */
    objects: readonly ManifestObject[],
  ) {
    this.headLength = bucketLineHead(prefix).length;
    for (const object of objects) {
      this.parsed.set(object.key, object);
      if (object.npi_bucket !== undefined) this.found.set(object.npi_bucket, object.key);
    }
    this.size = starts.length + objects.length;
    this.digits = width ?? objects[0]?.npi_bucket?.length ?? null;
  }

  /** The number of bucket objects. */
  readonly size: number;
  private readonly headLength: number;

  /** The entries of objects already parsed (a manifest not written one object per line, or a test's). */
  static of(objects: readonly ManifestObject[]): NpiBucketEntries {
    const none = new Int32Array(0);
    return new NpiBucketEntries(
      Buffer.alloc(0),
      none,
      none,
      null,
      '',
      objects.filter((o) => o.kind === 'npi'),
    );
  }

  /**
   * {@link scanNpiBucketLines}'s lines of `body` (`prefix`: the one it scanned for), and the bucket objects parsed
   * with the rest of the manifest.
   */
  static ofLines(
    body: Buffer,
    lines: ScannedLines,
    prefix: string,
    objects: readonly ManifestObject[],
  ): NpiBucketEntries {
    return new NpiBucketEntries(body, lines.starts, lines.ends, lines.width, prefix, objects);
  }

  /** The key of bucket `bucket`'s object, or undefined when the snapshot has no such bucket. */
  keyOf(bucket: string): string | undefined {
    const known = this.found.get(bucket);
    if (known !== undefined) return known ?? undefined;
    const line = this.lineOf(bucket);
    const key = line < 0 ? null : this.entryAt(line).key;
    this.found.set(bucket, key);
    return key ?? undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** The entry of bucket object `key` (parsed and checked on the first call), or undefined when it is not one. */
  get(key: string): ManifestObject | undefined {
    const known = this.parsed.get(key);
    if (known !== undefined) return known;
    const bucket = this.starts.length === 0 ? null : bucketOfKey(key, this.prefix);
    if (bucket === null) return undefined;
    const line = this.lineOf(bucket);
    if (line < 0) return undefined;
    const object = this.entryAt(line);
    return object.key === key ? object : undefined;
  }

  /** Every entry, in key order (parses every line: the API never needs this). */
  all(): ManifestObject[] {
    for (let i = 0; i < this.starts.length; i += 1) this.entryAt(i);
    return [...this.parsed.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** The line of bucket `bucket` (binary search over the lines' digits, in bucket order), or -1. */
  private lineOf(bucket: string): number {
    const { body, starts, headLength } = this;
    const digits = Buffer.from(`${bucket}/`, 'latin1');
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = (starts[mid] as number) + headLength;
      const order = body.compare(digits, 0, digits.length, at, Math.min(at + digits.length, body.length));
      if (order === 0) return mid;
      if (order < 0) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }

  /** The entry of line `i`, parsed and checked on its first read. */
  private entryAt(i: number): ManifestObject {
    const start = (this.starts[i] as number) + LINE_INDENT;
    const keyStart = start + '{"key":"'.length;
    const key = this.body.toString('latin1', keyStart, this.body.indexOf(QUOTE, keyStart));
    const known = this.parsed.get(key);
    if (known !== undefined) return known;
    const object = parseLine(this.body.toString('utf8', start, this.ends[i] as number), key, this.prefix);
    this.parsed.set(key, object);
    return object;
  }
}

/** A bucket line's object, checked as parseManifest checks every object, and against the key its line starts with. */
function parseLine(line: string, key: string, prefix: string): ManifestObject {
  let object: ManifestObject;
  try {
    object = JSON.parse(line) as ManifestObject;
  } catch {
    throw new IntegrityError(key, 'its manifest entry does not parse');
  }
  if (object?.key !== key || object.kind !== 'npi' || object.npi_bucket !== bucketOfKey(key, prefix)) {
    throw new IntegrityError(key, 'its manifest entry is not the NPI bucket its key names');
  }
  assertSafeKey(key);
  return object;
}

/**
 * Splits a manifest's bytes (manifestText's shape) into the text of the manifest without its NPI bucket lines, and
 * where those lines are. Nothing of a bucket line is read but its first bytes: a line is a bucket's when its key
 * starts with `prefix` (npiBucketsPrefix: `snapshots/<id>/npi/bucket=`) and digits. The lines must come in bucket order with one width (the manifest is
 * in key order); else, or when the text is not in manifestText's shape (a manifest written indented, before layout
 * 4), this returns null and the caller parses the manifest whole.
 */
export function scanNpiBucketLines(body: Buffer, prefix: string): { rest: Buffer; lines: ScannedLines } | null {
  const open = body.indexOf(OBJECTS_OPEN);
  const close = body.lastIndexOf(OBJECTS_CLOSE);
  if (open < 0 || close < open) return null;
  const head = bucketLineHead(prefix);
  const others: Buffer[] = [body.subarray(0, open + OBJECTS_OPEN.length)];
  const starts: number[] = [];
  const ends: number[] = [];
  let width = -1;
  let previous = -1;
  let at = open + OBJECTS_OPEN.length;
  while (at < close) {
    let end = body.indexOf(NEWLINE, at);
    if (end < 0 || end > close) end = close;
    // Every line but the last ends with the comma between objects.
    const lineEnd = end < close ? end - 1 : end;
    if (end < close && body[lineEnd] !== COMMA) return null;
    if (lineEnd - at > head.length && body.compare(head, 0, head.length, at, at + head.length) === 0) {
      const digitsAt = at + head.length;
      let w = 0;
      while (w <= 6 && (body[digitsAt + w] as number) >= 0x30 && (body[digitsAt + w] as number) <= 0x39) w += 1;
      if (w === 0 || w > 6 || body[digitsAt + w] !== SLASH || (width >= 0 && w !== width)) return null;
      if (previous >= 0 && body.compare(body, digitsAt, digitsAt + w, previous, previous + w) >= 0) return null;
      width = w;
      previous = digitsAt;
      starts.push(at);
      ends.push(lineEnd);
    } else {
      if (others.length > 1) others.push(LINE_SEPARATOR);
      others.push(body.subarray(at, lineEnd));
    }
    at = end + 1;
  }
  others.push(body.subarray(close));
  const lines = { starts: Int32Array.from(starts), ends: Int32Array.from(ends), width: width < 0 ? null : width };
  return { rest: Buffer.concat(others), lines };
}

const LINE_SEPARATOR = Buffer.from(',\n');
