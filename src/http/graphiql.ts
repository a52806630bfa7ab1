import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { GRAPHIQL_ASSETS, graphiqlAsset } from '../graphql/graphiql.js';
import { sendError } from './errors.js';
import { sendAsset } from './static-asset.js';

/** The assets of the GraphiQL page (src/graphql/graphiql.ts); no key needed, as for the page. */
export function registerGraphiQLRoutes(fastify: FastifyInstance): void {
  fastify.get<{ Params: { name: string } }>(`${GRAPHIQL_ASSETS}/:name`, async (req, reply) => {
    const asset = await graphiqlAsset(req.params.name);
    if (!asset) return sendError(reply, new AppError('NOT_FOUND', `No GraphiQL asset ${req.params.name.slice(0, 100)}`));
    return sendAsset(req, reply, asset, 'public, max-age=86400');
  });
}
