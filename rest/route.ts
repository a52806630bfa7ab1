import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../src/graphql/context.js';
import type { FormSpec } from './multipart.js';

/**
 * One /v1 endpoint: the named GraphQL operation it runs, how the request
 * becomes variables, and how the data becomes the SPEC.md body.
 */
export interface Route<TResult = unknown, TVariables = unknown> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  operation: TypedDocumentNode<TResult, TVariables>;
  /** none for a form route: its variables come from its form */
  variables?: (req: FastifyRequest) => TVariables | Promise<TVariables>;
  respond: (data: TResult, req: FastifyRequest, reply: FastifyReply) => unknown;
  /** the success status: a number, or from the data (200 or 202 by what happened) */
  status?: number | ((data: TResult) => number);
  /**
   * The domain's reading of the raw body the variables carry, run after
   * authentication and rate limits and before GraphQL coerces them into the
   * operation's typed input: every violated field in the service's words.
   */
  check?: (ctx: Context, variables: TVariables) => unknown;
  /**
   * A multipart/form-data route: its form is read where `check` would run, so
   * the body of a caller refused by authentication or rate limits is never read.
   */
  form?: FormSpec<TVariables>;
}

/** Types one route against its operation, then erases the types for the table. */
export const route = <TResult, TVariables>(r: Route<TResult, TVariables>) => r as unknown as Route;

export const noVariables = () => ({});
