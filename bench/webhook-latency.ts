/**
 * Run in a process of its own by `bench/webhooks.ts` (the local server configures its handlers once per process):
 * `npm start`'s API on its embedded engine, a receiver on 127.0.0.1 and an endpoint for it; then, one at a time, a
 * vacancy imported and the time from the import's end to the receiver's 2xx of the event naming it; and what the
 * dispatch read and wrote for them. Prints the result as JSON.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeVacancies } from '../lambda/domain/import/import';
import { validateVacancyRecord } from '../lambda/domain/import/record';
import { createDynamoDBClient } from '../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../lambda/platform/dynamodb/document-client';
import { zoneClock } from '../lambda/platform/time/zone-clock';
import { startLocalApi } from '../lib/local/local-api';
import { addEndpoint } from '../lib/ops/webhooks';
import { DEFAULT_SETTINGS } from '../lib/settings';

const events = Number(process.argv[2] ?? 10);
const VENDOR = 'pasha-bank';
const clock = zoneClock(DEFAULT_SETTINGS.serviceTimeZone);

const api = await startLocalApi({ port: 0 });
const documents = createDocumentClient(createDynamoDBClient({ endpoint: api.dynamodbEndpoint }));
const arrivals = new Map<number, number>();
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    response.writeHead(204).end();
    const at = performance.now();
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      data: { changes?: { id: number }[] };
    };
    for (const { id } of body.data.changes ?? []) if (!arrivals.has(id)) arrivals.set(id, at);
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
await addEndpoint(documents, api.tables.vendors, VENDOR, url, { allowLoopbackHttp: true });
// Past the settle window of the endpoint's start: what the demo seed wrote is delivered before the first round.
await new Promise((resolve) => setTimeout(resolve, 7_000));

const latencies: number[] = [];
const before = api.webhooks.consumed();
for (let round = 0; round < events; round += 1) {
  const id = 990_001 + round;
  const checked = validateVacancyRecord(
    {
      id,
      vendor_id: VENDOR,
      status: 'active',
      title: `Pushed ${round}`,
      url: `https://careers.example.com/jobs/${id}`,
      description: 'A job.',
      requirements: '',
      responsibilities: '',
      category: 'it',
      city: 'baku',
      type: 1,
      experience_min: 0,
      experience_max: null,
      salary_type: 'negotiable',
      deadline: '2099-01-01',
      created_at: new Date().toISOString(),
    },
    clock,
  );
  if (!checked.ok) throw new Error(checked.reasons.join('; '));
  await writeVacancies(documents, api.tables, [{ line: 1, vacancy: checked.vacancy }], { clock });
  const written = performance.now();
  const deadline = Date.now() + 60_000;
  while (!arrivals.has(id)) {
    if (Date.now() > deadline) throw new Error(`vacancy ${id} was not delivered in 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  latencies.push((arrivals.get(id) as number) - written);
}
// What the dispatch still does after the last delivery (the lease's release) is counted too.
await new Promise((resolve) => setTimeout(resolve, 1_000));
const after = api.webhooks.consumed();
process.stdout.write(
  `${JSON.stringify({
    events,
    latencies_ms: latencies,
    read_units: after.readUnits - before.readUnits,
    write_units: after.writeUnits - before.writeUnits,
  })}\n`,
);
receiver.close();
documents.destroy();
await api.stop();
