import { type aws_apigateway as apigateway, Validations, aws_wafv2 as wafv2 } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { AGENT_TIER } from '../../lambda/domain/settings/rate-tiers';
import { ERROR_MESSAGES, errorEnvelope } from '../../lambda/platform/http/errors';
import type { ServiceSettings } from '../settings';

/** What the rate tiers are built from. */
export interface RateTiersProps {
  readonly settings: ServiceSettings;
  readonly api: apigateway.RestApi;
}

/**
 * Rate limits (docs/api.md#rate-limits): one usage plan per rate tier on the stage, whose throttle is the tier's
 * rate and burst per API key in it — a vendor's, or a public agent endpoint's in the `agent` tier — the stage's own
 * throttle stays the ceiling over all of them — and, with the
 * setting `wafRateLimit`, an AWS WAF limit per IP address.
 *
 * The plans are children of the REST API, so their logical ids (and the vendors' keys in them) survive updates.
 */
export class RateTiers extends Construct {
  /** Each tier's usage plan id, by tier. */
  public readonly planIds: Readonly<Record<string, string>>;

  constructor(scope: Construct, id: string, { settings, api }: RateTiersProps) {
    super(scope, id);
    const plans: Record<string, string> = {};
    for (const [tier, { rate, burst }] of Object.entries(settings.rateTiers)) {
      const plan = api.addUsagePlan(`RateTier-${tier}`, {
        name: `${settings.stackName}-${tier}`,
        description: `Rate tier "${tier}": ${rate} requests/s, burst ${burst}, per ${tier === AGENT_TIER ? 'public agent endpoint' : 'vendor'}`,
        throttle: { rateLimit: rate, burstLimit: burst },
        apiStages: [{ api, stage: api.deploymentStage }],
      });
      plans[tier] = plan.usagePlanId;
    }
    this.planIds = plans;

    if (settings.wafRateLimit === 0) {
      Validations.of(api).acknowledge({
        id: 'AwsSolutions::AwsSolutions-APIG3',
        reason:
          'Every method needs a valid API key and each vendor is throttled by its rate tier; the per-IP AWS WAF limit is a setting (wafRateLimit), off by default for its monthly charge.',
      });
    } else {
      this.perIpLimit(settings, api);
    }
  }

  /**
   * An AWS WAF web ACL on the stage with one rate-based rule, against floods of made-up keys (each of which would
   * run the authorizer). Its block is a 429 with the contract's body; WAF cannot fill in the request id (the body
   * says "") nor set `Retry-After` (it prefixes the headers it adds with `x-amzn-waf-`).
   */
  private perIpLimit(settings: ServiceSettings, api: apigateway.RestApi): void {
    const visibility = (name: string) => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName: `${settings.stackName}-${name}`,
    });
    const webAcl = new wafv2.CfnWebACL(this, 'PerIpLimit', {
      scope: 'REGIONAL',
      description: `At most ${settings.wafRateLimit} requests per 5 minutes from one IP address`,
      defaultAction: { allow: {} },
      visibilityConfig: visibility('web-acl'),
      customResponseBodies: {
        tooManyRequests: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify(errorEnvelope(ERROR_MESSAGES[429], '')),
        },
      },
      rules: [
        {
          name: 'per-ip-rate',
          priority: 0,
          statement: {
            rateBasedStatement: {
              limit: settings.wafRateLimit,
              aggregateKeyType: 'IP',
              evaluationWindowSec: 300,
            },
          },
          action: {
            block: { customResponse: { responseCode: 429, customResponseBodyKey: 'tooManyRequests' } },
          },
          visibilityConfig: visibility('per-ip-rate'),
        },
      ],
    });
    new wafv2.CfnWebACLAssociation(this, 'PerIpLimitOnStage', {
      resourceArn: api.deploymentStage.stageArn,
      webAclArn: webAcl.attrArn,
    });
  }
}
