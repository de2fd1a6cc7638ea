/**
 * The data bucket (snapshots, pointer, public objects) and the two DynamoDB tables (keys, usage).
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, type LifecycleRule, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { SNAPSHOT_RETENTION_TAG, SNAPSHOTS_PREFIX } from '../../data-contracts/layout';
import { KEYS_TABLE, USAGE_TABLE } from '../../data-contracts/tables';

/**
 * The object tag that marks a snapshot object as superseded, and so as eligible for expiry.
 *
 * Why a tag: S3 lifecycle rules act on object age, and their filters (prefix, tags, size) can only select, never
 * exclude. An age rule on `snapshots/` alone would delete the current snapshot's objects once the ETL has not
 * run for longer than the retention, taking the API down. So expiry is opt-in per object: only objects tagged
 * `pf-snapshot=superseded` can expire, and the tag is written by the pointer-aware job (the hourly rebuild, or
 * the ETL right after it moves the pointer) on snapshots older than the current one, keeping the newest of them
 * untagged as the rollback target. The current snapshot is never tagged, so no lifecycle rule can ever reach
 * it; a job that forgets to tag costs storage, never availability. Because the bucket is versioned, an expired
 * object only becomes a noncurrent version and stays restorable for another retention period.
 */
export { SNAPSHOT_RETENTION_TAG, SNAPSHOTS_PREFIX } from '../../data-contracts/layout';

/** Props of {@link DataStore}. */
export interface DataStoreProps {
  /** Days before a superseded snapshot object expires, and before a noncurrent version is removed. */
  readonly snapshotRetentionDays: number;
}

/** The lifecycle rules of the data bucket for a retention of `days`. */
export function dataBucketLifecycleRules(days: number): LifecycleRule[] {
  return [
    {
      id: 'expire-superseded-snapshots',
      prefix: SNAPSHOTS_PREFIX,
      tagFilters: { [SNAPSHOT_RETENTION_TAG.key]: SNAPSHOT_RETENTION_TAG.superseded },
      expiration: Duration.days(days),
    },
    {
      // Overwrites (pointer, hourly public objects) and expiries leave noncurrent versions: keep them for one
      // retention period (rollback window), then free the storage.
      id: 'remove-noncurrent-versions',
      noncurrentVersionExpiration: Duration.days(days),
    },
    {
      id: 'clean-up-delete-markers-and-uploads',
      expiredObjectDeleteMarker: true,
      abortIncompleteMultipartUploadAfter: Duration.days(7),
    },
  ];
}

/** The bucket and tables that hold the service's state. All are retained when the stack is deleted. */
export class DataStore extends Construct {
  /** Snapshots, the current-snapshot pointer and the public objects. */
  readonly bucket: Bucket;
  /** One item per API key (hash only). */
  readonly keysTable: Table;
  /** One counter per key per UTC month, expiring by TTL. */
  readonly usageTable: Table;

  constructor(scope: Construct, id: string, props: DataStoreProps) {
    super(scope, id);

    this.bucket = new Bucket(this, 'DataBucket', {
      versioned: true,
      // SSE-S3 rather than SSE-KMS: CloudFront's origin access control reads it without a key policy, and the
      // snapshot data is public-by-contract facts, not secrets.
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      lifecycleRules: dataBucketLifecycleRules(props.snapshotRetentionDays),
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.keysTable = new Table(this, 'KeysTable', {
      partitionKey: { name: KEYS_TABLE.partitionKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.usageTable = new Table(this, 'UsageTable', {
      partitionKey: { name: USAGE_TABLE.partitionKey, type: AttributeType.STRING },
      sortKey: { name: USAGE_TABLE.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      // The API writes `expires_at` (epoch seconds after the item's month) on every count.
      timeToLiveAttribute: USAGE_TABLE.ttlAttribute,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
