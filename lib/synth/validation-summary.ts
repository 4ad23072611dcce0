/**
 * cdk-nag's findings on one screen. `cdk synth` writes them to `cdk.out/validation-report.json` (the CDK's policy
 * validation report, which cdk-nag feeds through `Validations`), where nobody looks: this reads that file and says,
 * per rule, what is open (errors and warnings that fail or warn the synth) and what is acknowledged, with the reason
 * written next to the resource (docs/operating.md#before-the-first-deployment).
 */

/** A construct a finding is about. */
interface ViolatingConstruct {
  readonly constructPath: string;
}

/** A finding of the report. */
interface Violation {
  readonly ruleName: string;
  readonly description: string;
  readonly severity: string;
  readonly violatingConstructs: readonly ViolatingConstruct[];
  /** Set on an acknowledged finding. */
  readonly reason?: string;
}

/** The CDK's validation report, as far as it is read here. */
export interface ValidationReport {
  readonly pluginReports: readonly {
    readonly pluginName: string;
    readonly conclusion: string;
    readonly violations: readonly Violation[];
    readonly suppressedViolations?: readonly Violation[];
  }[];
}

/** A construct path without its stack's name and the CDK's `Resource` leaves: what a reader recognises. */
const shortPath = (path: string) =>
  path
    .split('/')
    .slice(1)
    .filter((part) => part !== 'Resource' && part !== 'Default')
    .join('/');

/** The constructs of findings, short, at most `most` of them named. */
function where(violations: readonly Violation[], most = 3): string {
  const paths = [
    ...new Set(violations.flatMap((v) => v.violatingConstructs.map((c) => shortPath(c.constructPath)))),
  ];
  const named = paths.slice(0, most).join(', ');
  return paths.length > most ? `${named} and ${paths.length - most} more` : named;
}

/** Findings grouped by rule (and, for acknowledged ones, by reason), in order of first appearance. */
function grouped(violations: readonly Violation[], byReason: boolean): Violation[][] {
  const groups = new Map<string, Violation[]>();
  for (const violation of violations) {
    const key = byReason ? `${violation.ruleName}\n${violation.reason ?? ''}` : violation.ruleName;
    groups.set(key, [...(groups.get(key) ?? []), violation]);
  }
  return [...groups.values()];
}

/** A line cut to `width` characters. */
const cut = (line: string, width: number) => (line.length > width ? `${line.slice(0, width - 1)}…` : line);

/** The summary's lines, `width` characters at most each. */
export function summarizeValidationReport(report: ValidationReport, width = 118): string[] {
  const lines: string[] = [];
  for (const plugin of report.pluginReports) {
    const open = plugin.violations;
    const acknowledged = plugin.suppressedViolations ?? [];
    const count = (severity: string) => open.filter((violation) => violation.severity === severity).length;
    lines.push(
      `${plugin.pluginName} checks (cdk-nag): ${plugin.conclusion} — ${count('error')} errors, ${count('warning')} warnings, ${acknowledged.length} acknowledged`,
    );
    for (const group of grouped(open, false)) {
      const [first] = group as [Violation, ...Violation[]];
      lines.push(cut(`  ${first.severity.toUpperCase()} ${first.ruleName}: ${where(group)}`, width));
      lines.push(cut(`    ${first.description}`, width));
    }
    if (acknowledged.length > 0) lines.push('  acknowledged, with the reason written next to the resource:');
    for (const group of grouped(acknowledged, true)) {
      const [first] = group as [Violation, ...Violation[]];
      lines.push(cut(`  - ${first.ruleName} (${where(group)})`, width));
      lines.push(cut(`      ${first.reason ?? ''}`, width));
    }
  }
  return lines;
}
