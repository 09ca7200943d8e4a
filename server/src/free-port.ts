/**
 * A loopback TCP port nothing listens on right now: the OS picks it for a listener that is closed
 * again at once. For a stand-in whose library cannot listen on port 0 and report the port it got
 * (the demo heat pump's Modbus server), and for tests that start such peers. Another process may
 * take the port between the probe and its use; on loopback that is rare enough for both.
 * @throws the listener's error when no port can be opened.
 */
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
