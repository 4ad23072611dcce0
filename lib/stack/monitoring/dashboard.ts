import { Aws, aws_cloudwatch as cloudwatch } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { FUNCTION_NAMES as FUNCTIONS } from '../../../lambda/domain/service/limits';
import type { ServiceAlarms } from './alarms';
import type { ServiceMetrics } from './service-metrics';
import type { TopContributors } from './top-contributors';

/** What the dashboard shows. */
export interface ServiceDashboardProps {
  readonly dashboardName: string;
  readonly metrics: ServiceMetrics;
  readonly contributors: TopContributors;
  readonly alarms: ServiceAlarms;
}

/**
 * The service on one CloudWatch dashboard (docs/operating.md#dashboard), top to bottom: the alarms' state; the
 * API's traffic, error rates and latency; the functions; what a listing reads; the vendors that drive the load.
 */
export class ServiceDashboard extends Construct {
  public readonly dashboard: cloudwatch.Dashboard;
  /** The dashboard in the CloudWatch console. */
  public readonly url: string;

  constructor(
    scope: Construct,
    id: string,
    { dashboardName, metrics, contributors, alarms }: ServiceDashboardProps,
  ) {
    super(scope, id);
    const graph = (
      title: string,
      left: cloudwatch.IMetric[],
      options: Partial<cloudwatch.GraphWidgetProps> = {},
    ) => new cloudwatch.GraphWidget({ title, left, width: 8, height: 6, ...options });
    const percent = { leftYAxis: { min: 0, label: '%', showUnits: false } };
    const milliseconds = { leftYAxis: { min: 0, label: 'ms', showUnits: false } };
    const throttled = contributors.metric('throttled-by-vendor', 'SampleCount', '429 answers');

    this.dashboard = new cloudwatch.Dashboard(this, 'Default', {
      dashboardName,
      widgets: [
        [
          new cloudwatch.AlarmStatusWidget({
            title: 'Alarms',
            alarms: [...alarms.alarms],
            width: 24,
            height: 3,
          }),
        ],
        [
          graph('Requests', [metrics.requests()], { right: [throttled] }),
          graph(
            'Error rates',
            [
              metrics.clientErrorRate(),
              metrics.serverErrorRate(),
              metrics.shareOfRequests('429, % of requests', 'throttled', throttled),
            ],
            percent,
          ),
          graph(
            'Latency',
            [
              ...(['p50', 'p90', 'p99'] as const).map((p) =>
                metrics.latency(p).with({ label: `Latency ${p}` }),
              ),
              ...(['p50', 'p99'] as const).map((p) =>
                metrics.latency(p, 'integration').with({ label: `Integration ${p}` }),
              ),
            ],
            milliseconds,
          ),
        ],
        [
          graph(
            'Function duration',
            FUNCTIONS.flatMap((name) =>
              (['p50', 'p99'] as const).map((p) => metrics.lambda(name, 'Duration', p)),
            ),
            milliseconds,
          ),
          graph(
            'Function errors and throttles',
            FUNCTIONS.flatMap((name) => [
              metrics.lambda(name, 'Errors', 'Sum'),
              metrics.lambda(name, 'Throttles', 'Sum'),
            ]),
            { right: FUNCTIONS.map((name) => metrics.coldStarts(name)) },
          ),
          graph(
            'Concurrent executions',
            FUNCTIONS.map((name) => metrics.lambda(name, 'ConcurrentExecutions', 'Maximum')),
          ),
        ],
        [
          graph('Read units per listing', [
            metrics.emitted('readUnits', 'p50', 'p50'),
            metrics.emitted('readUnits', 'p99', 'p99'),
            metrics.emitted('readUnits', 'Maximum', 'max'),
          ]),
          graph('DynamoDB consumed reads', metrics.consumedReads(), { right: [metrics.throttledReads()] }),
          graph(
            'Per listing: DynamoDB calls and items',
            [
              metrics.emitted('dynamodbCalls', 'p99', 'DynamoDB calls p99'),
              metrics.emitted('itemsReturned', 'p50', 'items p50'),
              metrics.emitted('itemsReturned', 'p99', 'items p99'),
            ],
            { right: [metrics.emitted('foreignItems', 'Sum', 'items of another vendor (0 if healthy)')] },
          ),
        ],
        [
          contributors.widget('requests-by-vendor'),
          contributors.widget('read-units-by-vendor'),
          contributors.widget('throttled-by-vendor'),
        ],
        [
          contributors.widget('client-errors-by-vendor'),
          contributors.widget('refused-keys-by-ip'),
          graph('Keys refused by the authorizer', [metrics.emitted('keysRefused', 'Sum', 'Keys refused')], {
            right: [metrics.keyChecksFailed.with({ label: 'Key checks failed' })],
          }),
        ],
        [
          graph(
            'Expiry job (hourly)',
            [
              metrics.emitted('vacanciesExpired', 'Sum', 'vacancies expired'),
              metrics.emitted('summariesRecounted', 'Sum', 'summaries counted anew'),
            ],
            {
              right: [
                metrics.emitted('expiryUnfinished', 'Sum', 'runs out of time'),
                metrics.lambda('expiry', 'Errors', 'Sum').with({ label: 'runs failed' }),
              ],
            },
          ),
        ],
      ],
    });
    this.url = `https://${Aws.REGION}.console.aws.amazon.com/cloudwatch/home?region=${Aws.REGION}#dashboards/dashboard/${dashboardName}`;
  }
}
