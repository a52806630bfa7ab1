// A mutation sent with an Idempotency-Key header runs once: a retry replays its result.
// The one idempotency layer of both doors: a /v1 POST runs its operation through here too.
import {
  GraphQLError,
  Kind,
  print,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isAppError, type AppError } from '../../errors.js';
import { drainUploads, findUploads, fingerprintOf, hashUploads, withDigests } from '../../idempotency/fingerprint.js';
import { claimKey, keepsAnswer, readIdempotencyKey, REPLAYED_HEADER, reusedKey } from '../../idempotency/keys.js';
import { isKeptHttpAnswer, type Context } from '../context.js';

/** A result as kept: `data` and the errors as a client reads them. */
interface KeptResult {
  data?: unknown;
  errors?: Array<{ message: string; path?: ReadonlyArray<string | number>; extensions?: Record<string, unknown> }>;
}

/**
 * Placed after authentication and the document's limits, before rate limits
 * and the checks of the request: a replay spends no rate-limit points, and a
 * refusal of the request itself (VALIDATION_ERROR, PAYMENT_REQUIRED, NOT_FOUND,
 * ...) is kept and replayed like a success. Not kept, so a retry runs again:
 * 401, 429, and a result with an internal error. The key is scoped to the user
 * and to the mutation's root fields; queries and subscriptions ignore it.
 *
 * A /v1 route (ctx.idempotentRoute) keeps the scope and fingerprint of its HTTP
 * request (`POST /v1/projects`; path parameters, query and body), and its
 * answer is made again from the kept result, as from a first one. A form
 * route's variables are made by its check, after this plugin: its fingerprint
 * is known once that check has read the form, and a retry of an answered
 * request reads its form for its digest alone.
 */
export function useIdempotency(): Plugin<Context> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as Context;
      if (!ctx.user || ctx.idempotencyKey == null) return;
      const document = args.document as DocumentNode;
      const op = operationOf(document, args.operationName);
      if (op?.operation !== 'mutation') return;
      let key: string;
      try {
        key = readIdempotencyKey(ctx.idempotencyKey)!;
      } catch (e) {
        setResultAndStopExecution(refusal(e as AppError));
        return;
      }
      const fields = rootFields(document, op.selectionSet);
      const route = ctx.idempotentRoute;
      const scope = { userId: ctx.user.id, operation: route?.operation ?? `mutation ${[...new Set(fields.map((f) => f.name.value))].sort().join(' ')}`, key };
      const variables = args.variableValues ?? {};
      const uploads = findUploads(variables);
      const request = route?.request ?? ((vars: unknown) => ({ query: print(document), operationName: args.operationName ?? null, variables: vars }));
      const known = uploads.length || route?.formDigest ? null : fingerprintOf(request(variables));

      let claim;
      try {
        claim = await claimKey<KeptResult>(ctx.app.db, scope, known, { log: ctx.log, signal: route?.signal });
      } catch (e) {
        // the client went away while a first request held the key
        if (!isAppError(e)) throw e;
        setResultAndStopExecution({ errors: [e] });
        return;
      }
      if (claim.kind !== 'owner') {
        // an upload's fingerprint needs its file: read it, keeping nothing
        const digested = async () => (route?.formDigest ? route.formDigest() : withDigests(variables, await drainUploads(uploads)));
        const fingerprint = claim.kind === 'reused' ? null : (known ?? fingerprintOf(request(await digested())));
        if (claim.kind === 'reused' || fingerprint !== claim.fingerprint) {
          setResultAndStopExecution(refusal(reusedKey()));
          return;
        }
        if (route?.replayHttp && isKeptHttpAnswer(claim.answer)) {
          route.replayHttp(claim.answer);
          setResultAndStopExecution({ data: null });
          return;
        }
        ctx.responseHeaders.set(REPLAYED_HEADER, 'true');
        setResultAndStopExecution(replay(claim.answer, fields));
        return;
      }

      let hashed = uploads.length ? hashUploads(uploads) : null;
      const check = ctx.checkVariables;
      if (route?.formDigest && check) {
        // a form's file is hashed as the operation reads it, once its check has made the variables
        ctx.checkVariables = async (c, vars) => {
          const read = await check(c, vars);
          hashed = hashUploads(findUploads(vars));
          return read;
        };
      }
      return {
        async onExecuteDone({ result }) {
          try {
            const kept = 'data' in result || 'errors' in result ? keep(result as ExecutionResult) : null;
            const digests = hashed?.digests();
            const fingerprint = known ?? (digests ? fingerprintOf(request(withDigests(variables, digests))) : null);
            if (kept && fingerprint) await claim.finish(fingerprint, kept.status, kept.result);
            else await claim.release();
          } catch (err) {
            ctx.log.error({ err }, 'could not keep the result of an idempotent mutation');
            await claim.release().catch(() => {});
          }
        },
      };
    },
  };
}

function operationOf(document: DocumentNode, name: string | null | undefined): OperationDefinitionNode | undefined {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return name ? ops.find((o) => o.name?.value === name) : ops.length === 1 ? ops[0] : undefined;
}

/** The root fields an operation executes, fragments included. */
function rootFields(document: DocumentNode, set: SelectionSetNode, seen = new Set<string>()): FieldNode[] {
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
  const fields: FieldNode[] = [];
  const walk = (s: SelectionSetNode) => {
    for (const sel of s.selections) {
      if (sel.kind === Kind.FIELD) {
        if (!sel.name.value.startsWith('__')) fields.push(sel);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet);
      else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        const fragment = fragments.get(sel.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(set);
  return fields;
}

/** The result to keep, or null when a retry should run again (a refusal before any work, or a fault). */
function keep(result: ExecutionResult): { status: number; result: KeptResult } | null {
  let status = 200;
  const errors: NonNullable<KeptResult['errors']> = [];
  for (const e of result.errors ?? []) {
    const app = isAppError(e) ? e : isAppError(e.originalError) ? e.originalError : null;
    if (!app) return null;
    const http = (e.extensions as { http?: { status?: number } }).http?.status;
    if (!keepsAnswer(app.extensions.status) || (http && !keepsAnswer(http))) return null;
    if (http) status = Math.max(status, http);
    errors.push({ message: e.message, ...(e.path ? { path: e.path } : {}), extensions: { ...e.extensions } });
  }
  return { status, result: { ...('data' in result ? { data: result.data ?? null } : {}), ...(errors.length ? { errors } : {}) } };
}

/** The kept result again, its errors located on this request's fields. */
function replay(kept: KeptResult, fields: FieldNode[]): ExecutionResult {
  const located = (path: ReadonlyArray<string | number> | undefined) => {
    const node = path?.length ? fields.find((f) => (f.alias ?? f.name).value === path[0]) : undefined;
    return node && path!.length === 1 ? [node] : undefined;
  };
  return {
    ...('data' in kept ? { data: kept.data as Record<string, unknown> | null } : {}),
    ...(kept.errors ? { errors: kept.errors.map((e) => new GraphQLError(e.message, { nodes: located(e.path), path: e.path, extensions: e.extensions })) } : {}),
  };
}

/** A refusal of the header itself: 400, before any work. */
function refusal(error: AppError): ExecutionResult {
  (error.extensions as Record<string, unknown>).http = { status: 400 };
  return { errors: [error] };
}
