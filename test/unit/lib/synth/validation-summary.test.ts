/** `npm run synth`'s summary of cdk-nag's findings: what is open first, with its rule and where; then what is acknowledged and why. */
import { describe, expect, it } from '@jest/globals';
import { summarizeValidationReport } from '../../../../lib/synth/validation-summary';

const finding = (ruleName: string, severity: string, paths: string[], reason?: string) => ({
  ruleName,
  severity,
  description: `What ${ruleName} asks.`,
  violatingConstructs: paths.map((constructPath) => ({ constructPath })),
  ...(reason && { reason }),
});

describe('the synth summary of cdk-nag findings', () => {
  it('counts open errors and warnings, names their rule and constructs, and groups acknowledgements by reason', () => {
    const lines = summarizeValidationReport({
      pluginReports: [
        {
          pluginName: 'AwsSolutions',
          conclusion: 'failure',
          violations: [
            finding('AwsSolutions-DDB3', 'error', ['Stack/Data/Vacancies/Resource']),
            finding('AwsSolutions-L1', 'warning', [
              'Stack/A/Resource',
              'Stack/B/Resource',
              'Stack/C',
              'Stack/D',
            ]),
          ],
          suppressedViolations: [
            finding('AwsSolutions-IAM5', 'error', ['Stack/F1/Resource'], 'X-Ray has no resources.'),
            finding('AwsSolutions-IAM5', 'error', ['Stack/F2/Resource'], 'X-Ray has no resources.'),
          ],
        },
      ],
    });
    expect(lines).toEqual([
      'AwsSolutions checks (cdk-nag): failure — 1 errors, 1 warnings, 2 acknowledged',
      '  ERROR AwsSolutions-DDB3: Data/Vacancies',
      '    What AwsSolutions-DDB3 asks.',
      '  WARNING AwsSolutions-L1: A, B, C and 1 more',
      '    What AwsSolutions-L1 asks.',
      '  acknowledged, with the reason written next to the resource:',
      '  - AwsSolutions-IAM5 (F1, F2)',
      '      X-Ray has no resources.',
    ]);
    for (const line of summarizeValidationReport({ pluginReports: [] }, 40))
      expect(line.length).toBeLessThanOrEqual(40);
  });
});
