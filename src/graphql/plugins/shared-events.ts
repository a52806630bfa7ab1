// One execution of a subscription's event for every subscriber who asked for it alike.
//
// A project followed by thousands hears each move as one event object, handed by the pub/sub to
// every subscriber (src/pubsub.ts). GraphQL's own subscribe executes the operation on that event
// once per subscriber: 5,000 subscribers of one server were 5,000 executions of the same selection
// on the same object, the same answer each time (docs/operations.md, Live progress at scale). Here
// the event's answer is executed once for each signature (the document, its operation and
// variables, and the caller) and handed to every subscriber of that signature.
//
// That holds because every subscription's event type is a function of its event and of who asked:
// ProjectUpdate, JobEvent and PublicationUpdate expose the event's own fields and nothing read
// elsewhere. An answer with errors, or one that waits on a resolver, is not shared: each
// subscriber gets its own, as before. A subscription refused before it starts (a variable that
// does not coerce, a project that is not the caller's) is refused by the engine's own subscribe,
// with the codes it gave before.
import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { subscriptionEvents } from '../../metrics.js';
import type { Context } from '../context.js';

/** each document its number, for the signature (a parsed document is cached per query text, so alike asks share one) */
const documentNumbers = new WeakMap<DocumentNode, number>();
let documentsSeen = 0;

const executed = subscriptionEvents.labels('executed');
const shared = subscriptionEvents.labels('shared');

/** an event's answers, by signature, while the event lives */
const answers = new WeakMap<object, Map<string, ExecutionResult>>();

export function useSharedEventExecution(): Plugin<Context> {
  return {
    onSubscribe({ subscribeFn, setSubscribeFn }) {
      setSubscribeFn(((args: ExecutionArgs) => subscribeShared(args, subscribeFn as never)) as never);
    },
  };
}

/**
 * GraphQL's subscribe (the source stream, then each event mapped to its answer), the answer shared by
 * signature; a stream that cannot start is left to `engine`, whose refusal the client got before.
 */
async function subscribeShared(
  args: ExecutionArgs,
  engine: (args: ExecutionArgs) => Promise<AsyncGenerator<ExecutionResult> | ExecutionResult>,
): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult> {
  const stream = await createSourceEventStream(args);
  if (!isAsyncIterable(stream)) return engine(args);
  const signature = signatureOf(args);
  return mapEvents(stream, (event) => answerOf(args, signature, event));
}

function signatureOf(args: ExecutionArgs): string {
  let n = documentNumbers.get(args.document);
  if (n === undefined) documentNumbers.set(args.document, (n = ++documentsSeen));
  const caller = (args.contextValue as Partial<Context> | undefined)?.user?.id ?? '';
  return `${n}\u0000${args.operationName ?? ''}\u0000${JSON.stringify(args.variableValues ?? {})}\u0000${caller}`;
}

function answerOf(args: ExecutionArgs, signature: string, event: unknown): ExecutionResult | Promise<ExecutionResult> {
  const shareable = typeof event === 'object' && event !== null;
  const known = shareable ? answers.get(event)?.get(signature) : undefined;
  if (known) {
    shared.inc();
    return known;
  }
  executed.inc();
  const answer = execute({ ...args, rootValue: event });
  if (shareable && !isPromise(answer) && !answer.errors) {
    let bySignature = answers.get(event);
    if (!bySignature) answers.set(event, (bySignature = new Map()));
    bySignature.set(signature, answer);
  }
  return answer;
}

/** `fn` over each value of `source`; return() and throw() reach the source at once (as GraphQL's own map does). */
function mapEvents<T, R>(source: AsyncIterable<T>, fn: (value: T) => R | Promise<R>): AsyncGenerator<R> {
  const iterator = source[Symbol.asyncIterator]();
  const done = async (): Promise<IteratorResult<R>> => ({ done: true, value: undefined });
  const mapped: AsyncGenerator<R> = {
    async next() {
      const r = await iterator.next();
      return r.done ? { done: true, value: undefined } : { done: false, value: await fn(r.value) };
    },
    async return() {
      await iterator.return?.();
      return done();
    },
    async throw(error: unknown) {
      if (iterator.throw) await iterator.throw(error);
      else await iterator.return?.();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return mapped;
    },
  };
  return mapped;
}

const isAsyncIterable = (x: unknown): x is AsyncIterable<unknown> => typeof (x as AsyncIterable<unknown>)?.[Symbol.asyncIterator] === 'function';
const isPromise = <T>(x: T | Promise<T>): x is Promise<T> => typeof (x as Promise<T>)?.then === 'function';
