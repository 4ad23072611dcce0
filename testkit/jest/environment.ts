// Runs in every test worker before the tests: handlers built from their real entry points log nothing, and
// print no metrics (a test that reads the metrics turns them back on).
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
