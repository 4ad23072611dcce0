import {
  aws_apigateway as apigateway,
  CfnOutput,
  aws_logs as logs,
  RemovalPolicy,
  Stack,
  type StackProps,
} from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { notFoundAgentsUsageKey } from '../../lambda/domain/agent-registry/agent';
import { LISTING_PATH } from '../../lambda/domain/service/routes';
import { AGENT_TIER } from '../../lambda/domain/settings/rate-tiers';
import { FUNCTION_SETTINGS } from '../../lambda/domain/settings/settings';
import { STACK_OUTPUTS, type SummaryGuardsOutput } from '../deployment/stack-outputs';
import { linksBaseUrl, type ServiceSettings } from '../settings';
import { CustomDomain } from './custom-domain';
import { DataTables } from './data-tables';
import { ExpirySchedule } from './expiry-schedule';
import { FeedHosting } from './feeds';
import { ServiceFunctions } from './functions';
import { Inbox } from './inbox';
import { ServiceAlarms } from './monitoring/alarms';
import { ServiceDashboard } from './monitoring/dashboard';
import { ServiceMetrics } from './monitoring/service-metrics';
import { TopContributors } from './monitoring/top-contributors';
import { RateTiers } from './rate-tiers';
import { ServiceApi } from './rest-api';
import { SummaryGuards } from './summary-guards';
import { WebhookDispatch } from './webhooks';

/** Properties of the Vendor Vacancy API stack. */
export interface VacancyApiStackProps extends StackProps {
  readonly settings: ServiceSettings;
}

/**
 * The Vendor Vacancy API (docs/design.md#architecture): its tables, its functions (the expiry job on its schedule),
 * the REST API with its rate
 * tiers and (when the settings name one) its custom domain, and its monitoring — metrics, top-vendor rules, alarms
 * and a dashboard — with the outputs the operator and the ops CLI use.
 */
export class VacancyApiStack extends Stack {
  public readonly api: apigateway.RestApi;

  constructor(scope: Construct, id: string, props: VacancyApiStackProps) {
    super(scope, id, props);
    const { settings } = props;

    const data = new DataTables(this, 'Data', { destroyOnRemoval: settings.destroyOnRemoval });
    const functions = new ServiceFunctions(this, 'Functions', { settings, data });
    new ExpirySchedule(this, 'Expiry', {
      function: functions.expiry.function,
      timeZone: settings.serviceTimeZone,
    });
    // A writer killed holding a summary's lease: its guard recovers the summary (docs/design.md#a-kill-timeline).
    const summaryGuards = new SummaryGuards(this, 'SummaryGuards', {
      recovery: functions.expiry.function,
      writers: [functions.inbox.function, functions.expiry.function],
      scheduleGroupName: `${settings.stackName}-summary-guards`,
    });
    const inbox = new Inbox(this, 'Inbox', {
      function: functions.inbox.function,
      removalPolicy: settings.destroyOnRemoval ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
    });
    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: settings.logRetentionDays as logs.RetentionDays,
      removalPolicy: settings.destroyOnRemoval ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
    });
    this.api = new ServiceApi(this, 'Api', { settings, functions, accessLogs }).api;
    new WebhookDispatch(this, 'Webhooks', {
      function: functions.webhooks.function,
      vacancies: data.vacancies,
      scheduleGroupName: `${settings.stackName}-webhooks`,
    });
    const feeds = new FeedHosting(this, 'Feeds', {
      function: functions.feeds.function,
      vacancies: data.vacancies,
      scheduleGroupName: `${settings.stackName}-feeds`,
      removalPolicy: settings.destroyOnRemoval ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
    });
    // An event's sync_url: the links' base, or else the stage's own URL (known once the API is).
    if (!linksBaseUrl(settings))
      functions.webhooks.function.addEnvironment(FUNCTION_SETTINGS.publicBaseUrl.variable, this.api.url);
    const rateTiers = new RateTiers(this, 'RateLimits', { settings, api: this.api });
    // Every request on a token that is no public agent endpoint counts under one API key of the agent plan, which the
    // authorizer names from the vendors table's name (docs/api.md#agents-mcp).
    const notFoundAgents = new apigateway.ApiKey(this, 'AgentNotFoundKey', {
      value: notFoundAgentsUsageKey(data.vendors.tableName),
      description: 'Usage key of every request on a token that is no public agent endpoint',
    });
    new apigateway.CfnUsagePlanKey(this, 'AgentNotFoundKeyInPlan', {
      usagePlanId: rateTiers.planIds[AGENT_TIER] as string,
      keyId: notFoundAgents.keyId,
      keyType: 'API_KEY',
    });
    const domain = settings.domainName
      ? new CustomDomain(this, 'Domain', { settings, api: this.api })
      : undefined;

    // The monitoring profile (docs/operating.md#monitoring-profiles): alarms always; the rules and the dashboard
    // only when the deployment's traffic pays for them.
    const detailed = settings.monitoring === 'detailed';
    const metrics = new ServiceMetrics(this, 'Metrics', {
      api: this.api,
      functions,
      data,
      accessLogs,
      detailed,
    });
    const contributors = detailed
      ? new TopContributors(this, 'TopVendors', {
          namePrefix: settings.stackName,
          accessLogs,
          listingLogs: functions.listing.logGroup,
        })
      : undefined;
    const alarms = new ServiceAlarms(this, 'Alarms', { settings, metrics, contributors });
    const dashboard = contributors
      ? new ServiceDashboard(this, 'Dashboard', {
          dashboardName: settings.stackName,
          metrics,
          contributors,
          alarms,
        })
      : undefined;

    const output = (outputId: string, value: string, description: string) =>
      new CfnOutput(this, outputId, { value, description });
    const { api } = this;
    // Clients use the custom domain (or the public base URL) where there is one, else the stage's own URL.
    const base = linksBaseUrl(settings);
    output(
      STACK_OUTPUTS.apiUrl,
      base ? `${base}/` : api.url,
      'Base URL of the API for clients (the custom domain when there is one)',
    );
    output(
      STACK_OUTPUTS.listingUrl,
      base ? `${base}${LISTING_PATH}` : api.urlForPath(LISTING_PATH),
      'GET this with Authorization: Bearer <key>',
    );
    if (!settings.disableExecuteApiEndpoint) {
      output(STACK_OUTPUTS.stageUrl, api.url, "The stage's own execute-api URL (stage included)");
    }
    if (domain) {
      output(
        STACK_OUTPUTS.domainTarget,
        domain.target,
        `Point ${settings.domainName} at this name (CNAME, or an alias with DomainTargetHostedZoneId)`,
      );
      output(
        STACK_OUTPUTS.domainTargetHostedZoneId,
        domain.targetHostedZoneId,
        'Hosted zone of DomainTarget, for a Route 53 alias record',
      );
    }
    output(STACK_OUTPUTS.stageName, settings.stageName, 'API Gateway stage');
    output(STACK_OUTPUTS.vacanciesTable, data.vacancies.tableName, 'Vacancies table (ops CLI target)');
    output(STACK_OUTPUTS.vendorsTable, data.vendors.tableName, 'Vendors and API key hashes (ops CLI target)');
    output(STACK_OUTPUTS.alarmTopic, alarms.topic.topicArn, 'SNS topic of the alarms');
    if (dashboard)
      output(STACK_OUTPUTS.dashboardUrl, dashboard.url, 'The CloudWatch dashboard of the service');
    output(
      STACK_OUTPUTS.rateTiers,
      this.toJsonString({ default: settings.defaultRateTier, plans: rateTiers.planIds }),
      'Default rate tier, and the usage plan id of each tier (the ops CLI links vendor keys to them)',
    );
    output(
      STACK_OUTPUTS.inboxBucket,
      inbox.bucket.bucketName,
      'Put import files under incoming/ (snapshots under incoming/snapshots/<vendorId>/); reports under reports/',
    );
    output(
      STACK_OUTPUTS.feedBaseUrl,
      feeds.baseUrl,
      "The base of the feeds' URLs (<base>/feeds/<token>/<file>): the ops CLI prints each feed's URL under it",
    );
    output(
      STACK_OUTPUTS.feedBucket,
      feeds.bucket.bucketName,
      'The feeds\' files (feeds/<token>/<file>): the feeds function writes them, "feed remove" deletes a feed\'s',
    );
    output(
      STACK_OUTPUTS.feedFunction,
      functions.feeds.function.functionArn,
      'The feeds\' builds: "vacancy-admin feed add" and "vendor put|suspend|activate" ask it for the vendor\'s at once',
    );
    output(
      STACK_OUTPUTS.webhookFunction,
      functions.webhooks.function.functionArn,
      'The webhook dispatch: "vacancy-admin webhook enable" wakes it',
    );
    output(
      STACK_OUTPUTS.summaryGuards,
      this.toJsonString({
        group: summaryGuards.scheduleGroupName,
        roleArn: summaryGuards.role.roleArn,
        functionArn: functions.expiry.function.functionArn,
      } satisfies SummaryGuardsOutput),
      "Where the ops CLI's imports put the guards of their summary leases (one-time schedules)",
    );
    output(
      STACK_OUTPUTS.serviceTimeZone,
      settings.serviceTimeZone,
      'Time zone of created_at without an offset (the ops CLI imports in it)',
    );
  }
}
