/** Small helpers of the benchmark's figures and tables. */

export const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** A markdown table. */
export const table = (header: readonly string[], rows: readonly (readonly (string | number)[])[]) =>
  [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
