// A loopback TCP server for tests that speak bytes themselves: it counts the connections
// it accepted, and close() ends them too (server.close() alone would wait for them).

import net from "node:net";
import type { AddressInfo } from "node:net";

export interface TcpServer {
  url: string;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** `halfOpen`: a client's FIN is not answered with one (as a stopped process does not). */
export async function startTcpServer(onConnection: (socket: net.Socket) => void, o: { halfOpen?: boolean } = {}): Promise<TcpServer> {
  const open = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer({ allowHalfOpen: o.halfOpen === true }, (socket) => {
    accepted++;
    open.add(socket);
    socket.on("close", () => open.delete(socket));
    socket.on("error", () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => accepted,
    close: () =>
      new Promise((r) => {
        for (const s of open) s.destroy();
        server.close(() => r());
      }),
  };
}
