/**
 * A free TCP port of 127.0.0.1, for a process a test starts on a port it must know before the process says it
 * listens (a restart on the same port, a request sent while it starts).
 */
import { type AddressInfo, createServer } from 'node:net';

/** A port of 127.0.0.1 no one listened on a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
