import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CaptionTemplateNamesDocument, HookTitleTemplateNamesDocument, LanguagesDocument } from './generated/operations.js';

/**
 * One entry per /v1 endpoint: the named GraphQL operation it runs, how the
 * request becomes variables, and how the data becomes the SPEC.md body.
 */
export interface Route<TResult = unknown, TVariables = unknown> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  operation: TypedDocumentNode<TResult, TVariables>;
  variables: (req: FastifyRequest) => TVariables | Promise<TVariables>;
  respond: (data: TResult, req: FastifyRequest, reply: FastifyReply) => unknown;
  status?: number;
}

const route = <TResult, TVariables>(r: Route<TResult, TVariables>) => r as unknown as Route;
const none = () => ({});

export const routes: Route[] = [
  route({
    method: 'GET',
    url: '/v1/languages',
    operation: LanguagesDocument,
    variables: none,
    respond: (d) => ({ languages: d.languages.map(({ name, code }) => ({ name, code })) }),
  }),
  route({
    method: 'GET',
    url: '/v1/templates',
    operation: CaptionTemplateNamesDocument,
    variables: none,
    respond: (d) => ({ templates: d.captionTemplates.map((t) => t.name) }),
  }),
  route({
    method: 'GET',
    url: '/v1/hook-title/templates',
    operation: HookTitleTemplateNamesDocument,
    variables: none,
    respond: (d) => ({ templates: d.hookTitleTemplates.map((t) => t.name) }),
  }),
];
