import {
  aws_certificatemanager as acm,
  aws_apigateway as apigateway,
  aws_route53 as route53,
  Stack,
  Token,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { SettingError } from '../../lambda/domain/settings/errors';
import type { ServiceSettings } from '../settings';

/** What the custom domain is built from. */
export interface CustomDomainProps {
  readonly settings: ServiceSettings;
  readonly api: apigateway.RestApi;
}

/**
 * The API on a domain of the operator's (docs/operating.md#a-custom-domain): a REGIONAL API Gateway domain name with
 * the given ACM certificate and the TLS 1.2 security policy, mapped to the stage (under `basePath` when given),
 * and — with `hostedZoneId` — a Route 53 alias record pointing the name at it. Without a hosted zone, the operator
 * points the name at `target` (the `DomainTarget` output) in their own DNS.
 */
export class CustomDomain extends Construct {
  public readonly domain: apigateway.DomainName;
  /** The regional domain name to point DNS at (a CNAME, or an alias with `targetHostedZoneId`). */
  public readonly target: string;
  public readonly targetHostedZoneId: string;

  constructor(scope: Construct, id: string, { settings, api }: CustomDomainProps) {
    super(scope, id);
    const { domainName, certificateArn, basePath, hostedZoneId } = settings;
    // An API Gateway REGIONAL domain takes a certificate of its own region only.
    const stackRegion = Stack.of(this).region;
    // arn:aws:acm:<region>:<account>:certificate/<id>, checked by the setting's rule.
    const certificateRegion = certificateArn.split(':')[3];
    if (!Token.isUnresolved(stackRegion) && certificateRegion !== stackRegion) {
      throw new SettingError(
        `certificateArn is in ${certificateRegion}, the stack in ${stackRegion}: a regional custom domain needs a certificate of the stack's region.`,
      );
    }
    this.domain = new apigateway.DomainName(this, 'Default', {
      domainName,
      certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', certificateArn),
      endpointType: apigateway.EndpointType.REGIONAL,
      securityPolicy: apigateway.SecurityPolicy.TLS_1_2,
    });
    this.domain.addBasePathMapping(api, {
      stage: api.deploymentStage,
      ...(basePath && { basePath }),
    });
    this.target = this.domain.domainNameAliasDomainName;
    this.targetHostedZoneId = this.domain.domainNameAliasHostedZoneId;
    if (hostedZoneId) {
      // The record's name is the full domain name, so the zone's own name is not needed (the zone may be a parent).
      new route53.CfnRecordSet(this, 'AliasRecord', {
        hostedZoneId,
        name: domainName,
        type: 'A',
        aliasTarget: { dnsName: this.target, hostedZoneId: this.targetHostedZoneId },
      });
    }
  }
}
