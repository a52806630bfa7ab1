import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A file the service serves from memory (the API reference's, GraphiQL's), with its ETag. */
export interface StaticAsset {
  type: string;
  body: string | Buffer;
  etag: string;
}

export const staticAsset = (type: string, body: string | Buffer): StaticAsset => ({
  type,
  body,
  etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
});

/** Answers with an asset a client may keep and revalidate: 304 when its copy is current. */
export function sendAsset(req: FastifyRequest, reply: FastifyReply, asset: StaticAsset, cacheControl: string) {
  reply.header('cache-control', cacheControl).header('etag', asset.etag).header('x-content-type-options', 'nosniff');
  if (req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.type(asset.type).send(asset.body);
}
