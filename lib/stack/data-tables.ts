import { aws_dynamodb as dynamodb, RemovalPolicy } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import {
  type GlobalIndexDefinition,
  type KeyAttribute,
  type TableDefinition,
  VACANCIES_TABLE,
  VENDORS_TABLE,
} from '../../lambda/domain/schema/tables';

/** Options that apply to every table of a deployment. */
export interface DataTablesProps {
  /** `true` for dev stacks: tables are deleted with the stack and not protected from deletion. */
  readonly destroyOnRemoval: boolean;
}

const ATTRIBUTE_TYPES = {
  S: dynamodb.AttributeType.STRING,
  N: dynamodb.AttributeType.NUMBER,
  B: dynamodb.AttributeType.BINARY,
} as const;

function attribute(key: KeyAttribute): dynamodb.Attribute {
  return { name: key.name, type: ATTRIBUTE_TYPES[key.type] };
}

function globalIndexProps(index: GlobalIndexDefinition): dynamodb.GlobalSecondaryIndexProps {
  const { projection } = index;
  return {
    indexName: index.indexName,
    partitionKey: attribute(index.partitionKey),
    ...(index.sortKey && { sortKey: attribute(index.sortKey) }),
    ...(projection.type === 'INCLUDE'
      ? {
          projectionType: dynamodb.ProjectionType.INCLUDE,
          nonKeyAttributes: [...projection.nonKeyAttributes],
        }
      : { projectionType: dynamodb.ProjectionType[projection.type] }),
  };
}

/**
 * The service's DynamoDB tables, built from the definitions in `lambda/domain/schema/tables.ts`: on-demand billing,
 * point-in-time recovery, encryption at rest (AWS owned key), and — unless `destroyOnRemoval` — deletion
 * protection with a `RETAIN` removal policy, so vendor data survives a mistaken `cdk destroy`.
 */
export class DataTables extends Construct {
  /** Vacancies and their sparse active-by-vendor index. */
  public readonly vacancies: dynamodb.Table;
  /** Vendors and API key hashes. */
  public readonly vendors: dynamodb.Table;

  constructor(scope: Construct, id: string, props: DataTablesProps) {
    super(scope, id);
    // Its stream wakes the webhook dispatch (lib/stack/webhooks.ts): each write's new image, for its vendor.
    this.vacancies = this.table(VACANCIES_TABLE, props, dynamodb.StreamViewType.NEW_IMAGE);
    this.vendors = this.table(VENDORS_TABLE, props);
  }

  private table(
    definition: TableDefinition,
    props: DataTablesProps,
    stream?: dynamodb.StreamViewType,
  ): dynamodb.Table {
    const table = new dynamodb.Table(this, definition.logicalName, {
      ...(stream && { stream }),
      partitionKey: attribute(definition.partitionKey),
      ...(definition.sortKey && { sortKey: attribute(definition.sortKey) }),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.DEFAULT,
      deletionProtection: !props.destroyOnRemoval,
      removalPolicy: props.destroyOnRemoval ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
    });
    for (const index of definition.globalIndexes) table.addGlobalSecondaryIndex(globalIndexProps(index));
    return table;
  }
}
