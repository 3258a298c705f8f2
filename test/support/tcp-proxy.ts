import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  url: string;
  /** The target becomes unreachable: open connections are dropped, new ones refused at once. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** A TCP relay to 127.0.0.1:`targetPort` that a test can cut, as a network outage would. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let cut = false;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      cut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
