import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * One /v1 endpoint: the named GraphQL operation it runs, how the request
 * becomes variables, and how the data becomes the SPEC.md body.
 */
export interface Route<TResult = unknown, TVariables = unknown> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  operation: TypedDocumentNode<TResult, TVariables>;
  variables: (req: FastifyRequest) => TVariables | Promise<TVariables>;
  respond: (data: TResult, req: FastifyRequest, reply: FastifyReply) => unknown;
  status?: number;
}

/** Types one route against its operation, then erases the types for the table. */
export const route = <TResult, TVariables>(r: Route<TResult, TVariables>) => r as unknown as Route;

export const noVariables = () => ({});
