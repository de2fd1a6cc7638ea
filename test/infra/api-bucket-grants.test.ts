/**
 * The API role's bucket grants against the keys the API reads. A key left out is an outage that no local test shows
 * (the folder store and s3rver grant everything): S3 answers 403 where the API expects the object. So the granted
 * patterns are checked against every key of the layout's key functions, and against every key the real ETL and the
 * hourly rebuild write for a chain of two snapshots (with its change feed); the ETL's inputs stay out.
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  blockDigestsKey,
  changesBasisKey,
  changesNpiIndexKey,
  changesPartitionKey,
  identityIndexKey,
  identityPartitionKey,
  manifestKey,
  npiBucketKey,
  POINTER_KEY,
  PUBLIC_KEYS,
  rejectsKey,
  SCREEN_NAMES,
  STATIC_FILES,
  screenKey,
  searchIndexKey,
  staticKey,
  taxonomyKey,
  verticalPartitionKey,
} from '../../data-contracts/layout';
import { rebuildStatic } from '../../etl/rebuild-static';
import { INPUTS_PREFIX } from '../../infra/constructs/etl-jobs';
import { buildChangesFixture } from '../helpers/changes-fixture';
import { actionsOf, logicalIdWhere, statementsOfRole, synthStack, tempOutdir } from './helpers';

type Statement = ReturnType<typeof statementsOfRole>[number];

/** An IAM wildcard pattern (`*` any run, `?` one character) as a regular expression. */
function iamPattern(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`);
}

/** The key pattern of an object ARN of the bucket: `{ Fn::Join: ['', [<bucket arn>, '/<pattern>']] }`. */
function keyPatternOf(resource: unknown, bucketId: string): string | null {
  const join = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (join === undefined) return null;
  const [bucket, suffix] = join[1] as [unknown, string];
  if (JSON.stringify(bucket) !== JSON.stringify({ 'Fn::GetAtt': [bucketId, 'Arn'] })) return null;
  return suffix.replace(/^\//, '');
}

let outdir: string;
let fixtureDir: string;
let readable: RegExp[];
let listable: RegExp[];

beforeAll(() => {
  outdir = tempOutdir('pf-infra-grants-');
  const { template } = synthStack({}, { bundle: false, outdir });
  const apiId = logicalIdWhere(template, 'AWS::Lambda::Function', (p) =>
    String(p.Description ?? '').includes('Provider Facts API'),
  );
  const bucketId = logicalIdWhere(template, 'AWS::S3::Bucket', () => true);
  const role = template.findResources('AWS::Lambda::Function')[apiId]?.Properties.Role as
    | { 'Fn::GetAtt': [string, string] }
    | undefined;
  const roleId = role?.['Fn::GetAtt'][0] ?? '';
  const statements = statementsOfRole(template, roleId);
  const resourcesOf = (st: Statement) => (Array.isArray(st.Resource) ? st.Resource : [st.Resource]);
  readable = statements
    .filter((st) => st.Effect === 'Allow' && actionsOf([st]).includes('s3:GetObject'))
    .flatMap(resourcesOf)
    .map((resource) => keyPatternOf(resource, bucketId))
    .filter((pattern): pattern is string => pattern !== null)
    .map(iamPattern);
  listable = statements
    .filter((st) => st.Effect === 'Allow' && actionsOf([st]).includes('s3:ListBucket'))
    .flatMap((st) => (st.Condition as { StringLike: { 's3:prefix': string[] } }).StringLike['s3:prefix'])
    .map(iamPattern);
}, 120_000);

afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
  if (fixtureDir !== undefined) await rm(fixtureDir, { recursive: true, force: true });
});

const granted = (key: string) => readable.some((re) => re.test(key));
const listed = (key: string) => listable.some((re) => re.test(key));

describe('the API role reads what the layout names', () => {
  const id = '20261121T053800Z-1a2b3c';
  const keys = [
    POINTER_KEY,
    ...Object.values(PUBLIC_KEYS),
    manifestKey(id),
    verticalPartitionKey(id, 'verified', 'glp1', 'TX'),
    verticalPartitionKey(id, 'tracked', 'glp1', null),
    identityPartitionKey(id, 'counselor'),
    identityIndexKey(id, 'counselor'),
    blockDigestsKey(identityIndexKey(id, 'counselor')),
    searchIndexKey(id, 'TX'),
    blockDigestsKey(searchIndexKey(id, 'TX')),
    npiBucketKey(id, '12345'),
    blockDigestsKey(npiBucketKey(id, '12345')),
    taxonomyKey(id),
    ...Object.values(STATIC_FILES).map((file) => staticKey(id, file)),
    rejectsKey(id),
    ...SCREEN_NAMES.map((name) => screenKey(id, name)),
    changesBasisKey(id),
    changesPartitionKey(id, '2026-11'),
    changesNpiIndexKey(id, '2026-11'),
  ];

  it.each(keys)('may get and list %s', (key) => {
    expect(granted(key)).toBe(true);
    // s3:ListBucket under the key too: a missing key is 404 NoSuchKey, not 403 AccessDenied.
    expect(listed(key)).toBe(true);
  });

  it('may neither get nor list the ETL inputs', () => {
    for (const key of [`${INPUTS_PREFIX}nppes/npidata_pfile.csv`, `${INPUTS_PREFIX}feeds/glp1/providers.csv`]) {
      expect(granted(key)).toBe(false);
      expect(listed(key)).toBe(false);
    }
  });
});

describe('the API role reads every key the ETL writes', () => {
  let stored: string[];

  beforeAll(async () => {
    fixtureDir = tempOutdir('pf-infra-grants-store-');
    const { store } = await buildChangesFixture(fixtureDir);
    await rebuildStatic({ store });
    const entries = await readdir(fixtureDir, { recursive: true, withFileTypes: true });
    stored = entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(fixtureDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  }, 300_000);

  it('covers the pointer, both snapshots with their change feed, and the public objects', () => {
    // The fixture holds what the grants must cover: a check that the walk found the objects at all.
    expect(stored).toContain(POINTER_KEY);
    for (const key of Object.values(PUBLIC_KEYS)) expect(stored).toContain(key);
    expect(stored.some((key) => key.includes('/changes/month='))).toBe(true);
    expect(stored.some((key) => key.endsWith('.blocks'))).toBe(true);
    expect(stored.filter((key) => !granted(key) || !listed(key))).toEqual([]);
  });
});
