// Runs in every test worker before the tests: handlers built from their real entry points log nothing.
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
