import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ErrorCode } from '../src/errors.js';
import type { Context } from '../src/graphql/context.js';
import type { Answer } from './answer.js';
import type { FormSpec } from './multipart.js';
import type { QueryParam } from './query.js';

/**
 * One /v1 endpoint: the named GraphQL operation it runs, how the request
 * becomes variables, and how the data becomes the SPEC.md body. The API
 * reference (openapi.ts) is made of these fields and of nothing else.
 */
export interface Route<TResult = unknown, TVariables = unknown, TQuery extends Record<string, unknown> = Record<string, unknown>> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  /** one line for the reference */
  summary: string;
  /** what the route adds to SPEC.md, when it is not one of SPEC.md's: the reference marks it (x-extension) */
  extension?: string;
  operation: TypedDocumentNode<TResult, TVariables>;
  /** the query parameters, each read and described in one place */
  query?: { [K in keyof TQuery]: QueryParam<TQuery[K]> };
  /** none for a form route: its variables come from its form */
  variables?: (req: FastifyRequest, query: Partial<TQuery>) => TVariables | Promise<TVariables>;
  /** the schema `check` (or the form's fields check) reads the JSON body (or the form's text parts) with */
  body?: z.ZodType;
  /** the body made from the operation's data, and with it its schema for the reference (rest/answer.ts) */
  answer: Answer;
  /** the media types of an answer that is not JSON */
  produces?: readonly string[];
  /** refusals of this route beyond those every route may give (authentication, limits, validation, faults), and when */
  errors?: Partial<Record<ErrorCode, string>>;
  /** the success status: a number, or from the data (200 or 202 by what happened) */
  status?: number | ((data: TResult) => number);
  /** the success statuses a `status` function picks from, and what each says */
  statuses?: Record<number, string>;
  /**
   * The domain's reading of the raw body the variables carry, run after
   * authentication and rate limits and before GraphQL coerces them into the
   * operation's typed input: every violated field in the service's words. It
   * is the resolver's body reader (src/graphql/body-reads.ts), so the service
   * takes what it read instead of reading the body again.
   */
  check?: (ctx: Context, variables: TVariables) => unknown;
  /**
   * A multipart/form-data route: its form is read where `check` would run, so
   * the body of a caller refused by authentication or rate limits is never read.
   */
  form?: FormSpec<TVariables>;
}

/** Types one route against its operation, then erases the types for the table. */
export const route = <TResult, TVariables, TQuery extends Record<string, unknown> = Record<string, never>>(r: Route<TResult, TVariables, TQuery>) =>
  r as unknown as Route;

export const noVariables = () => ({});
