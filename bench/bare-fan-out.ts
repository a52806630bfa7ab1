/**
 * The floor of a fan-out on this machine, for `npm run bench -- subscribers`: a
 * WebSocket server that speaks just enough graphql-transport-ws for the
 * subscribers' reader (ack, a first `next`) and, on POST /go, writes one
 * prepared `next` to every socket in a loop. No GraphQL, no pub/sub, no
 * database: what is left is the sockets' own writes and the reader's reads, as
 * a bare transcode is the floor of a render. Prints its port as one line; stops
 * on SIGTERM.
 */
import http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';

const next = (id: string, status: string) =>
  JSON.stringify({ id, type: 'next', payload: { data: { projectUpdates: { status, stage: null, percent: null } } } });
/** the move's message for each subscription id, made before the loop */
const prepared = new Map<string, string>();

const subscribed = new Map<WebSocket, string>();
const server = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/go') {
    for (const id of new Set(subscribed.values())) if (!prepared.has(id)) prepared.set(id, next(id, 'exporting'));
    for (const [socket, id] of subscribed) socket.send(prepared.get(id)!);
    res.end('sent');
  } else res.writeHead(404).end();
});
const wss = new WebSocketServer({ server, path: '/graphql' });
wss.on('connection', (socket) => {
  socket.on('message', (raw) => {
    const m = JSON.parse(String(raw)) as { type: string; id?: string };
    if (m.type === 'connection_init') socket.send(JSON.stringify({ type: 'connection_ack' }));
    else if (m.type === 'subscribe' && m.id) {
      subscribed.set(socket, m.id);
      socket.send(next(m.id, 'completed'));
    }
  });
  socket.on('close', () => subscribed.delete(socket));
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as { port: number }).port}\n`));
process.once('SIGTERM', () => {
  for (const s of wss.clients) s.terminate();
  server.close(() => process.exit(0));
});
