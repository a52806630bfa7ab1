// GraphQL over WebSocket (graphql-ws) on /graphql, and what one client may hold
// there (README, Connection limits): a connection is acknowledged only for a
// valid API key (else closed 4403 before any operation), messages are read up
// to a size, one key holds a bounded number of sockets, and a socket that runs
// no operation for a while is closed.
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { CloseCode, type Context as SocketContext } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { App } from '../app.js';
import { userForKey } from '../auth/authenticate.js';
import { hashApiKey, keyFromConnectionParams } from '../auth/keys.js';
import type { GraphQLServer } from '../graphql/yoga.js';

type Extra = { socket: WebSocket; request: IncomingMessage };
type Ctx = SocketContext<Record<string, unknown> | undefined, Extra>;

/** RFC 6455's "Try Again Later": the key holds as many sockets as it may. */
const TOO_MANY_SOCKETS = 1013;

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

  const server = useServer(
    {
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
        const document = enveloped.parse(payload.query);
        const errors = enveloped.validate(enveloped.schema, document);
        if (errors.length) return errors;
        return {
          schema: enveloped.schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables ?? undefined,
          contextValue: await enveloped.contextFactory(),
          rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
        };
      },
    },
    wss,
  );

  // graphql-ws reports every error of a socket on the console as a fault of the server's own; a
  // frame over the size limit or one that is not WebSocket is the client's, and ws has already
  // closed the socket for it (1009, 1002, 1007): it is noted, not reported
  wss.on('connection', (socket: WebSocket) => {
    socket.removeAllListeners('error');
    socket.on('error', (err) => app.log.debug({ err: err.message }, 'a WebSocket client sent what cannot be read'));
  });

  const idle = limits.wsIdleTimeoutMs > 0 ? setInterval(() => closeIdle(busyAt, limits.wsIdleTimeoutMs), Math.max(50, Math.min(5_000, limits.wsIdleTimeoutMs / 4))) : undefined;
  idle?.unref();

  return {
    wss,
    async dispose() {
      clearInterval(idle);
      await server.dispose();
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
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
