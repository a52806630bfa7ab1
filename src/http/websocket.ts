// GraphQL over WebSocket (the graphql-transport-ws protocol, graphql-ws's server
// on ws sockets) on /graphql, and what one client may hold there (README,
// Connection limits): a connection is acknowledged only for a valid API key
// (else closed 4403 before any operation), messages are read up to a size, one
// key holds a bounded number of sockets, a socket that runs no operation for a
// while is closed, and whatever a client sends that breaks the protocol closes
// its socket as the client's error, never as the server's.
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { GraphQLError } from 'graphql';
import { WebSocketServer, type WebSocket } from 'ws';
import { CloseCode, handleProtocols, makeServer, MessageType, parseMessage, type Context as SocketContext, type ServerOptions } from 'graphql-ws';
import type { App } from '../app.js';
import { userForKey } from '../auth/authenticate.js';
import { hashApiKey, keyFromConnectionParams } from '../auth/keys.js';
import { withSpecCode } from '../graphql/plugins/error-codes.js';
import type { GraphQLServer } from '../graphql/yoga.js';

type Extra = { socket: WebSocket; request: IncomingMessage };
type Ctx = SocketContext<Record<string, unknown> | undefined, Extra>;

/** RFC 6455's "Try Again Later": the key holds as many sockets as it may. */
const TOO_MANY_SOCKETS = 1013;

/** How often a socket is pinged; one that has not answered by the next ping is dropped (graphql-ws's own default). */
const KEEP_ALIVE_MS = 12_000;

/** The messages only a server sends: a client that sends one breaks the protocol. */
const SERVER_MESSAGES = new Set<string>([MessageType.ConnectionAck, MessageType.Next, MessageType.Error]);

export interface GraphQLSockets {
  /** takes the upgrades of /graphql */
  wss: WebSocketServer;
  /** closes every socket (1001, going away) and stops */
  dispose(): Promise<void>;
}

export function serveGraphQLOverWebSocket(app: App, graphql: GraphQLServer): GraphQLSockets {
  const limits = app.config.connections;
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.wsMaxPayloadBytes });
  /** open, acknowledged sockets of each key (by its hash) */
  const socketsOfKey = new Map<string, Set<WebSocket>>();
  /** when each acknowledged socket last ran an operation (or was acknowledged) */
  const busyAt = new Map<Ctx, number>();

  const options: ServerOptions<Record<string, unknown> | undefined, Extra> = {
    execute: (args) => (args.rootValue as { execute: (a: unknown) => unknown }).execute(args) as never,
    subscribe: (args) => (args.rootValue as { subscribe: (a: unknown) => unknown }).subscribe(args) as never,
    onConnect: async (ctx: Ctx) => {
      const key = keyFromConnectionParams(ctx.connectionParams ?? {});
      let user;
      try {
        user = await userForKey(app.db, key);
      } catch (err) {
        app.log.error({ err }, 'could not resolve the caller of a WebSocket');
        ctx.extra.socket.close(CloseCode.InternalServerError, 'Internal server error');
        return false;
      }
      if (!user) return false; // 4403 Forbidden
      const hash = hashApiKey(key!);
      const held = socketsOfKey.get(hash) ?? new Set<WebSocket>();
      if (held.size >= limits.wsMaxSocketsPerKey) {
        ctx.extra.socket.close(TOO_MANY_SOCKETS, `This API key holds ${held.size} WebSockets, the most it may; run several subscriptions on one`);
        return false;
      }
      held.add(ctx.extra.socket);
      socketsOfKey.set(hash, held);
      ctx.extra.socket.once('close', () => {
        held.delete(ctx.extra.socket);
        if (!held.size && socketsOfKey.get(hash) === held) socketsOfKey.delete(hash);
      });
      busyAt.set(ctx, Date.now());
      return true;
    },
    onClose: (ctx: Ctx) => void busyAt.delete(ctx),
    onSubscribe: async (ctx, _id, payload) => {
      const requestId = crypto.randomUUID();
      const enveloped = graphql.getEnveloped({
        ...ctx,
        requestId,
        log: app.log.child({ reqId: requestId }),
        connectionParams: ctx.connectionParams ?? {},
        params: payload,
      } as never);
      // a document that does not parse or validate is the client's error, with the code /graphql gives it over HTTP
      let document;
      try {
        document = enveloped.parse(payload.query);
      } catch (err) {
        if (err instanceof GraphQLError) return [withSpecCode(err)];
        throw err;
      }
      const errors = enveloped.validate(enveloped.schema, document);
      if (errors.length) return errors.map((e: GraphQLError) => withSpecCode(e));
      return {
        schema: enveloped.schema,
        document,
        operationName: payload.operationName,
        variableValues: payload.variables ?? undefined,
        contextValue: await enveloped.contextFactory(),
        rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
      };
    },
  };
  const server = makeServer(options);
  wss.options.handleProtocols = handleProtocols;
  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    // a frame over the size limit or one that is not WebSocket is the client's error: ws has closed the socket for it (1009, 1002, 1007)
    socket.on('error', (err) => app.log.debug({ err: err.message }, 'a WebSocket client sent what cannot be read'));
    const alive = keepAlive(socket);
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => (socket.readyState === socket.OPEN ? socket.send(data, (err) => (err ? reject(err) : resolve())) : resolve())),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (handle) =>
          socket.on('message', async (data) => {
            const text = String(data);
            const refused = breaksProtocol(text);
            if (refused) return socket.close(CloseCode.BadRequest, refused);
            try {
              await handle(text);
            } catch (err) {
              app.log.error({ err }, 'a WebSocket message could not be handled');
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            }
          }),
      },
      { socket, request },
    );
    socket.once('close', (code, reason) => {
      clearInterval(alive);
      void closed(code, String(reason));
    });
  });

  const idle =
    limits.wsIdleTimeoutMs > 0
      ? setInterval(() => closeIdle(busyAt, limits.wsIdleTimeoutMs), Math.max(50, Math.min(5_000, limits.wsIdleTimeoutMs / 4)))
      : undefined;
  idle?.unref();

  return {
    wss,
    async dispose() {
      clearInterval(idle);
      for (const client of wss.clients) client.close(1001, 'Going away');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const client of wss.clients) client.terminate();
    },
  };
}

/**
 * Why a message breaks graphql-ws's protocol in a way the library would take
 * for its own fault (a message only a server sends), or what the library says
 * of one it cannot read at all; null for a message it handles.
 */
function breaksProtocol(text: string): string | null {
  try {
    const { type } = parseMessage(text);
    return SERVER_MESSAGES.has(type) ? `Unexpected message of type ${type} received` : null;
  } catch {
    return 'Invalid message received';
  }
}

/** Pings the socket every KEEP_ALIVE_MS; a socket whose pong has not come by the next ping is dropped. */
function keepAlive(socket: WebSocket): NodeJS.Timeout {
  let answered = true;
  socket.on('pong', () => (answered = true));
  const timer = setInterval(() => {
    if (!answered) return socket.terminate();
    answered = false;
    socket.ping();
  }, KEEP_ALIVE_MS);
  timer.unref();
  return timer;
}

/** Closes (1000) the sockets that have run no operation for `idleMs`; their clients connect again when they need to. */
function closeIdle(busyAt: Map<Ctx, number>, idleMs: number): void {
  const now = Date.now();
  for (const [ctx, at] of busyAt) {
    if (Object.keys(ctx.subscriptions).length) busyAt.set(ctx, now);
    else if (now - at >= idleMs) {
      busyAt.delete(ctx);
      ctx.extra.socket.close(1000, `Idle: no operation for ${idleMs / 1000} s`);
    }
  }
}
