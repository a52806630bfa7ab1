// A request whose Accept header names no type this server answers in is refused before it
// runs: Yoga would execute it (a mutation changes data) and only then answer 406, empty.
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../context.js';

/** The types Yoga's result processors write (use-result-processor.js of graphql-yoga). */
const ANSWERED_IN = ['application/graphql-response+json', 'application/json', 'text/event-stream', 'multipart/mixed'];

/** The media types an Accept header asks for, read as Yoga reads them (utf-8 only; none: any). */
function asked(accept: string | null): string[] {
  return (accept || '*/*')
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',')
    .filter((part) => (part.split(';').find((p) => p.startsWith('charset=')) ?? 'charset=utf-8') === 'charset=utf-8')
    .map((part) => part.split(';')[0]);
}

const matches = (wanted: string, type: string) => {
  const [pre, suf] = wanted.split('/');
  const [tPre, tSuf] = type.split('/');
  return (pre === '*' || pre === tPre) && (suf === '*' || suf === tSuf);
};

export function useAcceptableResponse(): Plugin<Context> {
  return {
    onRequestParse({ request, endResponse, fetchAPI }) {
      const accept = request.headers.get('accept');
      if (asked(accept).some((w) => ANSWERED_IN.some((t) => matches(w, t)))) return;
      const message = `Not acceptable: Accept (${accept}) names none of ${ANSWERED_IN.join(', ')} (UTF-8)`;
      endResponse(
        new fetchAPI.Response(JSON.stringify({ errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] }), {
          status: 406,
          headers: { 'content-type': 'application/json; charset=utf-8' },
        }),
      );
    },
  };
}
