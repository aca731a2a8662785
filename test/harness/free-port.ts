// A TCP port free on loopback right now, for a server a test or benchmark starts in another process
// (the bridge CLI, a Python backend) and must name before it runs. Listening on port 0 inside the
// process that serves is better where possible; this is for when the server is elsewhere.
import net from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
