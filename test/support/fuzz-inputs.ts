/**
 * What the fuzz suite (test/e2e/fuzz.test.ts) sends: fast-check arbitraries of
 * requests to every /v1 route, the file route and every GraphQL mutation, from
 * nearly valid to broken, and of HTTP framing no client library would write.
 *
 * Every URL a request carries points at this machine (the media fixtures'
 * server, a closed port of 127.0.0.1) or is refused by its text alone (a social
 * platform's page, a scheme other than http), so the server never fetches from
 * anywhere else.
 */
import fc from 'fast-check';
import {
  GraphQLEnumType,
  type GraphQLObjectType,
  type GraphQLScalarType,
  getNamedType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { ACTIVE_WORD_EFFECTS, PAGE_ENTRANCES, STYLE_FONTS } from '../../src/catalog/caption-style.js';
import { CAPTION_TEMPLATES } from '../../src/catalog/caption-templates.js';
import { HOOK_TITLE_TEMPLATES } from '../../src/catalog/hook-title-templates.js';
import { LANGUAGES } from '../../src/catalog/languages.js';
import { VIDEO_LAYOUTS } from '../../src/catalog/layouts.js';
import { PLATFORM_KEYS } from '../../src/catalog/platforms.js';
import { SILENCE_PACES } from '../../src/catalog/silence-paces.js';
import { DIRECTIONS, SORT_KEYS } from '../../src/publishing/listing.js';
import { COMMERCIAL_CONTENT_TYPES, PHOTOSHARE_FORMATS, PRIVACY_LEVELS } from '../../src/publishing/schemas.js';
import { STATS_METRICS } from '../../src/stats/service.js';
import { RETURN_ORIGINS, type Actor, type Foreign } from './fuzz-server.js';
import { multipartBody, type Pace } from './raw.js';

// ---------------------------------------------------------------------------
// what the arbitraries draw from

export interface InputContext {
  actors: Actor[];
  foreign: Foreign;
  /** media URLs the fixtures' server answers, and ones that fail */
  urls: { video: string; audio: string; image: string; page: string; text: string; noise: string; missing: string; closed: string };
  /** file contents for uploads */
  uploads: { video: Buffer; audio: Buffer; image: Buffer; noise: Buffer; page: Buffer; empty: Buffer; tooLarge: Buffer };
  musicIds: string[];
  /** a stored object and a way to sign links to it */
  signedFile: { path: string; key: string; size: number };
  signedPathFor(key: string, exp: number, download?: string): string;
  schema: GraphQLSchema;
}

/** One HTTP request, written as given (test/e2e/fuzz.test.ts frames it). */
export interface HttpCase {
  /** how the summary and a failure name it: `POST /v1/projects` */
  label: string;
  method: string;
  /** the request-target as sent */
  target: string;
  headers: Array<[string, string]>;
  body?: Buffer;
  /** the body is cut off: its Content-Length says more, and the client goes away after a moment (no whole request was sent) */
  cutOff?: boolean;
  /** how many root fields a GraphQL document runs (1 when left out) */
  roots?: number;
}

/** Bytes over a socket, with the request-targets they carry, in order. */
export interface RawCase {
  label: string;
  bytes: Buffer;
  /** the request-targets of the requests in `bytes` whose heads are whole, in order */
  targets: string[];
  /** false when no whole request was sent: the server may rightly answer nothing */
  complete: boolean;
  /** close our side after the last byte */
  halfClose: boolean;
  /** how long to wait for answers */
  waitMs: number;
  /** how many root fields a GraphQL document runs (1 when left out) */
  roots?: number;
  /** sent a piece at a time (a slow client) rather than at once */
  pace?: Pace;
}

/** A JSON text written as is into a body (a value nested thousands deep, a number JSON.stringify would not write). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON.stringify that writes a RawJson's text as is. */
export function toJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const pick = <T>(...values: T[]) => fc.constantFrom(...values);
const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });

// ---------------------------------------------------------------------------
// text and values

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const oddChar = fc.oneof(
  loneSurrogate,
  pick(
    '\u0000',
    '\u0001',
    '\u001f',
    '\u007f',
    '\u202e',
    '\ufeff',
    '\u200b',
    '\ufffd',
    '\uffff',
    '😀',
    'e\u0301',
    '\r\n',
    '\t',
    '"',
    "'",
    '\\',
    '%',
    '<',
    '&',
    '`',
    '$',
  ),
);
const SPECIAL_TEXT = [
  '',
  ' ',
  '   ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  'ok\ud83d',
  '😀😀',
  'Ünïcödé',
  '\u202eevil',
  '<script>alert(1)</script>',
  '\'; DROP TABLE "Project"; --',
  '${jndi:x}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1e999',
  'NaN',
  '../../../etc/passwd',
  '%00',
  '%zz',
  'a'.repeat(50),
  'a'.repeat(51),
  'a'.repeat(100),
  'a'.repeat(101),
  'a'.repeat(2500),
  'a'.repeat(2501),
];

/** text from harmless to what storage cannot hold: NUL, unpaired surrogates, control and bidi characters */
export const fuzzText: fc.Arbitrary<string> = fc.oneof(
  w(4, fc.string({ maxLength: 24 })),
  w(2, fc.string({ unit: 'binary', maxLength: 24 })),
  w(
    2,
    fc.array(fc.oneof(fc.string({ maxLength: 6 }), oddChar), { maxLength: 8 }).map((p) => p.join('')),
  ),
  w(3, fc.constantFrom(...SPECIAL_TEXT)),
  w(1, fc.string({ unit: 'grapheme', maxLength: 40 })),
);

/** a string of 10 KB to 2 MB */
export const hugeText = fc
  .integer({ min: 10_000, max: 2_000_000 })
  .chain((n) => pick('a', '\u00e9', '😀', '\u0000').map((c) => c.repeat(Math.ceil(n / c.length))));

/** arrays or objects nested from 30 to 6,000 deep, as JSON text */
export const deepJson = fc
  .tuple(fc.integer({ min: 30, max: 6000 }), fc.boolean())
  .map(([n, arrays]) => new RawJson(arrays ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n)));

export const fuzzNumber: fc.Arbitrary<unknown> = fc.oneof(
  w(3, fc.integer({ min: -5, max: 5000 })),
  w(
    2,
    pick(
      0,
      -0,
      1,
      -1,
      0.5,
      12,
      15,
      16,
      60,
      61,
      79.99,
      80,
      81,
      99,
      100,
      101,
      200,
      201,
      2500,
      4000,
      4001,
      2 ** 31 - 1,
      2 ** 31,
      -(2 ** 31) - 1,
      2 ** 53 + 2,
      1e21,
      1e308,
      5e-324,
    ),
  ),
  w(2, fc.double({ noNaN: true, noDefaultInfinity: true })),
  w(
    1,
    pick(
      new RawJson('1e999'),
      new RawJson('-1e999'),
      new RawJson('123456789012345678901234567890'),
      new RawJson('1.0'),
      new RawJson('-0.0'),
      new RawJson('1E2'),
    ),
  ),
);

const scalarJunk: fc.Arbitrary<unknown> = fc.oneof(fuzzText, fuzzNumber, fc.boolean(), fc.constant(null));

/** any JSON value, deep ones and huge strings now and then */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  w(6, scalarJunk),
  w(3, fc.jsonValue({ maxDepth: 3 })),
  w(2, fc.array(scalarJunk, { maxLength: 4 })),
  w(2, fc.dictionary(fc.oneof(fuzzText, pick('__proto__', 'constructor', 'prototype', 'type', 'id')), scalarJunk, { maxKeys: 4 })),
  w(1, deepJson),
  w(1, hugeText),
);

/** mostly `valid`, sometimes anything; `.valid` is the valid part alone */
const mostly = <T>(valid: fc.Arbitrary<T>, ratio = 4): fc.Arbitrary<unknown> & { valid: fc.Arbitrary<unknown> } =>
  Object.assign(fc.oneof(w(ratio, valid as fc.Arbitrary<unknown>), w(1, anyJson)), { valid: valid as fc.Arbitrary<unknown> });

/** `all`, whose valid part is `valid` */
const withValid = <T>(valid: fc.Arbitrary<T>, all: fc.Arbitrary<T>) => Object.assign(all, { valid });

/** the valid part of a field's arbitrary, where it has one */
const validOf = (a: fc.Arbitrary<unknown>) => (a as { valid?: fc.Arbitrary<unknown> }).valid ?? a;

const boolish = mostly(fc.boolean(), 6);
const numIn = (min: number, max: number, int = false) =>
  withValid<unknown>(
    int ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true }),
    mostly(fc.oneof(int ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true }), pick(min, max, min - 1, max + 1, (min + max) / 2)), 5),
  );

// ---------------------------------------------------------------------------
// ids

export type IdKind =
  | 'project'
  | 'processingProject'
  | 'exportedProject'
  | 'busyProject'
  | 'preset'
  | 'theme'
  | 'media'
  | 'audio'
  | 'image'
  | 'pendingMedia'
  | 'apiKey'
  | 'webhook'
  | 'publication'
  | 'profile'
  | 'spareProfile'
  | 'captionTemplate'
  | 'hookTemplate';

const GARBAGE_IDS = [
  '',
  '0',
  'null',
  'undefined',
  '-1',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '123e4567-e89b-12d3-a456-42661417400',
  '123e4567-e89b-12d3-a456-4266141740000',
  '{{id}}',
  ':id',
  '..',
  '../presets',
  'a'.repeat(101),
  'a'.repeat(5000),
  '\u0000',
  'é',
  '😀',
  ' ',
  "1' OR '1'='1",
];

/** the ids of one kind an actor owns */
function ownIds(a: Actor, kind: IdKind): string[] {
  switch (kind) {
    case 'project':
      return a.projects;
    case 'processingProject':
      return [a.processingProject];
    case 'exportedProject':
      return [a.exportedProject];
    case 'busyProject':
      return [a.busyProject];
    case 'preset':
      return a.presets;
    case 'theme':
      return a.themes;
    case 'media':
      return [a.media.video, a.media.image, a.media.audio];
    case 'audio':
      return [a.media.audio];
    case 'image':
      return [a.media.image];
    case 'pendingMedia':
      return [a.media.pending];
    case 'apiKey':
      // never the key the actor sends: revoking it would end the fuzz
      return a.spareKeys;
    case 'webhook':
      return a.webhooks;
    case 'publication':
      return a.publications;
    case 'profile':
      return a.profiles;
    case 'spareProfile':
      // never the primary profile: a disconnect there would end the valid publishes
      return [a.spareProfile];
    // a few names: each template's preview still is made on its first read
    case 'captionTemplate':
      return CAPTION_TEMPLATES.slice(0, 3).map((t) => t.name);
    case 'hookTemplate':
      return HOOK_TITLE_TEMPLATES.slice(0, 2).map((t) => t.name);
  }
}

function foreignId(f: Foreign, kind: IdKind): string {
  switch (kind) {
    case 'project':
    case 'processingProject':
    case 'busyProject':
      return f.project;
    case 'preset':
      return f.preset;
    case 'theme':
      return f.theme;
    case 'apiKey':
      return f.apiKey;
    case 'webhook':
      return f.webhook;
    case 'exportedProject':
      return f.exportedProject;
    case 'publication':
      return f.publication;
    case 'profile':
    case 'spareProfile':
      return f.profile;
    default:
      return f.media;
  }
}

/** an id of `kind`: mostly the actor's own, else another user's, an unknown UUID, an id of another kind or garbage */
export function idArb(ctx: InputContext, actor: Actor, kind: IdKind): fc.Arbitrary<string> & { valid: fc.Arbitrary<string> } {
  // a project delete is never sent another of the actor's projects: it would go
  const others: IdKind[] = kind === 'busyProject' ? ['preset', 'theme', 'media', 'webhook'] : ['project', 'preset', 'theme', 'media', 'webhook'];
  const other = others.filter((k) => k !== kind).flatMap((k) => ownIds(actor, k));
  const own = fc.constantFrom(...ownIds(actor, kind));
  // a publication's id is pub_<uuid>: an unknown one is mostly of that form
  const unknown =
    kind === 'publication'
      ? fc.oneof(
          w(
            3,
            fc.uuid().map((u) => `pub_${u}`),
          ),
          w(1, fc.uuid()),
        )
      : fc.uuid();
  return withValid(
    own,
    fc.oneof(
      w(8, fc.constantFrom(...ownIds(actor, kind))),
      w(1, fc.constant(foreignId(ctx.foreign, kind))),
      w(1, unknown),
      w(1, fc.constantFrom(...other)),
      w(
        1,
        fc.constantFrom(...ownIds(actor, kind)).map((id) => id.toUpperCase()),
      ),
      w(2, fc.oneof(fc.constantFrom(...GARBAGE_IDS), fuzzText)),
    ),
  );
}

// ---------------------------------------------------------------------------
// URLs: only ones the server fetches from this machine, or refuses unfetched

export function mediaUrlArb(ctx: InputContext, prefer: 'video' | 'media'): fc.Arbitrary<unknown> {
  const u = ctx.urls;
  const good = prefer === 'video' ? [u.video, u.video, u.video, u.audio] : [u.audio, u.image, u.video, u.audio];
  return withValid<unknown>(
    fc.constantFrom(...good),
    fc.oneof(
      w(10, fc.constantFrom(...good)),
      w(3, fc.constantFrom(u.page, u.text, u.noise, u.missing, u.closed)),
      w(
        3,
        pick(
          'https://www.youtube.com/watch?v=abc',
          'https://youtu.be/abc',
          'https://vimeo.com/123',
          'https://www.tiktok.com/@a/video/1',
          'https://drive.google.com/drive/folders/abc',
          'https://drive.google.com/file/d/abc/view',
          'https://docs.google.com/document/d/abc',
          'ftp://127.0.0.1/v.mp4',
          'file:///etc/passwd',
          'javascript:alert(1)',
          'data:video/mp4;base64,AAAA',
          'http://',
          'http://[::1',
          '127.0.0.1/v.mp4',
          '//127.0.0.1/v.mp4',
          ' ',
          '',
        ),
      ),
      w(
        1,
        fc.constantFrom(...good).map((g) => `${g}?x=${'a'.repeat(3000)}`),
      ),
      w(
        1,
        fc.constantFrom(...good).map((g) => g.replace('http://', 'HTTP://')),
      ),
      w(2, anyJson.map(safeUrlValue)),
    ),
  );
}

const goodWebhook = pick('https://127.0.0.1:1/hook', 'https://localhost:1/hooks/a?b=c', 'https://[::1]:1/x');
const webhookUrlArb = withValid<unknown>(
  goodWebhook,
  fc.oneof(
    w(6, goodWebhook),
    w(2, pick('http://127.0.0.1:1/hook', 'ftp://127.0.0.1/x', 'https://', 'not a url', '', 'https://127.0.0.1:1/' + 'a'.repeat(2100))),
    w(1, anyJson.map(safeUrlValue)),
  ),
);

const ALLOWED_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const REFUSED_UNFETCHED =
  /(^|\.)(youtube\.com|youtu\.be|vimeo\.com|tiktok\.com|instagram\.com|twitter\.com|x\.com|facebook\.com|linkedin\.com|drive\.google\.com|docs\.google\.com)$/;

/** A string that happens to be an http(s) URL of another host is pointed at a closed port here: the server never goes out. */
export function safeUrlValue(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  let u: URL;
  try {
    u = new URL(v.trim());
  } catch {
    return v;
  }
  if (!['http:', 'https:'].includes(u.protocol) || ALLOWED_HOSTS.has(u.hostname) || REFUSED_UNFETCHED.test(u.hostname)) return v;
  return 'http://127.0.0.1:1/elsewhere';
}

/** Applies safeUrlValue to every string of a value (a fuzzed body may carry a URL in any field). */
export function safeUrls(v: unknown): unknown {
  if (typeof v === 'string') return safeUrlValue(v);
  if (Array.isArray(v)) return v.map(safeUrls);
  if (v && typeof v === 'object' && !(v instanceof RawJson)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, safeUrls(x)]));
  return v;
}

// ---------------------------------------------------------------------------
// bodies of the routes, field by field

type Fields = Record<string, fc.Arbitrary<unknown>>;

const titleArb = withValid<unknown>(
  pick('My talk', 'Q3 review', 'x', 'Ünïcödé 😀'),
  mostly(fc.oneof(pick('My talk', 'Q3 review', 'x'), fc.string({ minLength: 1, maxLength: 100 })), 3),
);
const languageArb = withValid<unknown>(
  pick('en', 'EN'),
  mostly(fc.oneof(pick(...LANGUAGES.map((l) => l.code)), pick('en', 'EN', 'En', 'xx', 'english', 'en-US', '')), 6),
);
const templateArb = withValid<unknown>(
  pick(...CAPTION_TEMPLATES.map((t) => t.name)),
  mostly(fc.oneof(pick(...CAPTION_TEMPLATES.map((t) => t.name)), pick('Classic', 'nope', '')), 4),
);
const paceArb = withValid<unknown>(pick(...SILENCE_PACES), mostly(pick(...SILENCE_PACES, 'slow', ''), 4));
const layoutArb = mostly(pick(...VIDEO_LAYOUTS, 'circle'), 5);

const hookTitleValid = fc.oneof(
  fc.boolean(),
  fc.record(
    {
      text: pick('Watch this', 'Three tips'),
      template: pick(...HOOK_TITLE_TEMPLATES.map((t) => t.name)),
      top: fc.integer({ min: 0, max: 80 }),
      size: fc.integer({ min: 0, max: 80 }),
    },
    { requiredKeys: [] },
  ),
);

const hookTitleArb = withValid<unknown>(
  hookTitleValid,
  fc.oneof(
    w(3, fc.boolean()),
    w(
      4,
      fc.record(
        {
          text: mostly(fc.string({ minLength: 1, maxLength: 100 }), 3),
          template: mostly(pick(...HOOK_TITLE_TEMPLATES.map((t) => t.name), 'nope'), 3),
          top: numIn(0, 80),
          size: numIn(0, 80),
        },
        { requiredKeys: [] },
      ),
    ),
    w(1, anyJson),
  ),
);

const timesArb = fc
  .tuple(fc.double({ min: 0, max: 10, noNaN: true }), fc.double({ min: -1, max: 15, noNaN: true }))
  .map(([s, len]) => ({ startTime: s, endTime: s + len }));

function itemArb(ctx: InputContext, a: Actor) {
  return fc.oneof(
    w(
      4,
      fc
        .tuple(timesArb, idArb(ctx, a, 'media'), layoutArb, fc.boolean())
        .map(([t, id, layout, withLayout]) => ({ type: 'user-media', ...t, userMediaId: id, ...(withLayout ? { layout } : {}) })),
    ),
    w(
      3,
      fc
        .tuple(timesArb, mostly(fc.string({ minLength: 1, maxLength: 60 }), 4), layoutArb)
        .map(([t, prompt, layout]) => ({ type: 'ai-broll', ...t, prompt, layout })),
    ),
    w(
      1,
      fc.record(
        { type: mostly(pick('user-media', 'ai-broll', 'video'), 2), startTime: fuzzNumber, endTime: fuzzNumber, userMediaId: fuzzText, prompt: fuzzText },
        { requiredKeys: [] },
      ),
    ),
    w(1, anyJson),
  );
}

/** items that pass: one after another, each within its limits */
function itemsValid(a: Actor) {
  const item = fc.oneof(
    fc
      .tuple(pick(a.media.video, a.media.image), pick('cover', 'contain', 'rounded', 'square'))
      .map(([userMediaId, layout]) => ({ type: 'user-media', userMediaId, layout })),
    pick('a lake at dawn', 'city lights').map((prompt) => ({ type: 'ai-broll', prompt })),
  );
  return fc
    .array(fc.tuple(item, fc.integer({ min: 1, max: 12 })), { minLength: 1, maxLength: 2 })
    .map((list) => list.map(([it, len], i) => ({ ...it, startTime: i * 13, endTime: i * 13 + len })));
}

const itemsArb = (ctx: InputContext, a: Actor) => withValid<unknown>(itemsValid(a), mostly(fc.array(itemArb(ctx, a), { maxLength: 4 }), 5));

function musicArb(ctx: InputContext, a: Actor) {
  const ids = fc.oneof(
    w(5, idArb(ctx, a, 'audio')),
    w(2, ctx.musicIds.length ? fc.constantFrom(...ctx.musicIds) : idArb(ctx, a, 'audio')),
    w(1, idArb(ctx, a, 'image')),
  );
  const valid = fc.record(
    {
      userMediaId: ctx.musicIds.length ? pick(a.media.audio, ...ctx.musicIds) : pick(a.media.audio),
      volume: fc.integer({ min: 1, max: 100 }),
      startFromTime: fc.integer({ min: 0, max: 2 }),
      fade: fc.boolean(),
    },
    { requiredKeys: ['userMediaId', 'volume'] },
  );
  return withValid<unknown>(
    valid,
    mostly(fc.record({ userMediaId: mostly(ids, 6), volume: numIn(1, 100), startFromTime: numIn(0, 30), fade: boolish }, { requiredKeys: ['userMediaId'] }), 4),
  );
}

const dictionaryArb = withValid<unknown>(
  fc.array(pick('Acme', 'Kubernetes', 'Zoë'), { maxLength: 3 }),
  mostly(fc.array(mostly(fc.string({ minLength: 1, maxLength: 50 }), 4), { maxLength: 6 }), 4),
);

const WORDS = [
  { id: 'w_a', text: 'Hello', type: 'word', startTime: 0.1, endTime: 0.5 },
  { id: 'w_b', text: '', type: 'silence', startTime: 0.5, endTime: 1.2 },
  { id: 'w_c', text: 'world', type: 'word', startTime: 1.2, endTime: 1.6 },
  { id: 'w_d', text: '.', type: 'punctuation', startTime: 1.6, endTime: 1.6 },
  { id: 'w_e', text: 'again', type: 'word', startTime: 1.7, endTime: 2.4 },
];

/** a transcript edit that passes: the words kept in order, one changed, one added at the end */
const wordsValid = fc.tuple(fc.subarray(WORDS, { minLength: 1 }), fc.boolean(), fc.boolean()).map(([kept, change, add]) => {
  const words = kept.map((x, i) => (change && i === 0 && x.type === 'word' ? { ...x, text: 'Changed' } : { ...x }));
  return add ? [...words, { text: 'more', type: 'word', startTime: 2.5, endTime: 2.9 }] : words;
});

/** a transcript edit: the project rows' words (test/support/fuzz-server.ts), some changed, added, dropped or broken */
const wordsArb = withValid<unknown>(
  wordsValid,
  mostly(
    fc
      .tuple(
        fc.subarray(WORDS, { minLength: 0 }),
        fc.array(
          fc.record(
            {
              id: mostly(pick('w_a', 'w_zz', ''), 2),
              text: mostly(fc.string({ maxLength: 20 }), 3),
              type: mostly(pick('word', 'silence', 'punctuation', 'pause'), 5),
              startTime: numIn(0, 10),
              endTime: numIn(0, 10),
            },
            { requiredKeys: ['type', 'startTime', 'endTime'] },
          ),
          { maxLength: 3 },
        ),
        fc.boolean(),
      )
      .map(([kept, added, sort]) => {
        const all = [...kept, ...added] as Array<{ startTime: unknown }>;
        const at = (w: { startTime: unknown }) => (typeof w.startTime === 'number' ? w.startTime : 0);
        return sort ? all.sort((x, y) => at(x) - at(y)) : all;
      }),
    4,
  ),
);

/** clip lengths: whole and fractional seconds inside 15-300, then the edges and beyond */
const clipLengthArb = withValid<unknown>(
  fc.integer({ min: 15, max: 60 }),
  mostly(fc.oneof(fc.integer({ min: 15, max: 300 }), fc.double({ min: 15, max: 300, noNaN: true }), pick(14, 14.99, 301, 0, -15)), 4),
);

/** a video platform's page (a host of the default VIDEO_PLATFORM_HOSTS), the fixture server's media, or not one */
function videoshareUrlArb(ctx: InputContext): fc.Arbitrary<unknown> {
  const valid = pick('https://www.youtube.com/watch?v=abc123', 'https://youtu.be/abc123', 'https://vimeo.com/123456');
  return withValid<unknown>(
    valid,
    mostly(
      fc.oneof(
        valid,
        pick('https://example.com/watch?v=1', 'https://music.youtube.com/watch?v=1', 'ftp://youtube.com/x', 'youtube.com/watch'),
        mediaUrlArb(ctx, 'video'),
      ),
      4,
    ),
  );
}

const colorArb = mostly(pick('#FFFFFF', '#000000cc', '#12ab9F', 'red', '#FFF', '#GGGGGG', null), 4);
/** A partial caption style: some groups, each with some members, mostly valid. */
const styleArb = mostly(
  fc.record(
    {
      font: fc.record(
        {
          family: mostly(pick(...STYLE_FONTS, 'Comic Sans'), 4),
          size: numIn(16, 240, true),
          weight: numIn(100, 900, true),
          case: mostly(pick('upper', 'lower', 'asSpoken', 'title'), 4),
        },
        { requiredKeys: [] },
      ),
      fill: colorArb,
      box: fc.oneof(fc.constant(null), fc.record({ color: colorArb, padding: numIn(0, 60, true) }, { requiredKeys: [] })),
      layout: fc.record({ wordsPerLine: numIn(1, 12, true), linesPerPage: numIn(1, 3, true) }, { requiredKeys: [] }),
      activeWord: fc.record({ effect: mostly(pick(...ACTIVE_WORD_EFFECTS, 'glow'), 4), color: colorArb }, { requiredKeys: [] }),
      entrance: fc.record({ effect: mostly(pick(...PAGE_ENTRANCES, 'spin'), 4), duration: numIn(0, 1000, true) }, { requiredKeys: [] }),
      emoji: mostly(pick('off', 'keywords', 'always'), 4),
    },
    { requiredKeys: [] },
  ),
  4,
);

// ---------------------------------------------------------------------------
// the publish body (src/publishing/schemas.ts)

/** a post's text of 1 to `max` code points, not only spaces; then empty, blank, one too long (in code points and in UTF-16 units) */
function postTextArb(max: number, samples: string[]): fc.Arbitrary<unknown> {
  const valid = fc.oneof(
    w(6, pick(...samples)),
    w(
      3,
      fc.string({ minLength: 1, maxLength: 40 }).filter((t) => t.trim() !== ''),
    ),
    // at the limit: 😀 is one code point in two UTF-16 units
    w(1, pick('x'.repeat(max), '😀'.repeat(max), `${'a'.repeat(max - 1)}é`)),
  );
  return withValid<unknown>(valid, mostly(fc.oneof(w(4, valid), w(1, pick('', ' ', '\u3000', 'x'.repeat(max + 1), '😀'.repeat(max + 1), null))), 4));
}

/** an enum member: its values mostly, now and then a near miss */
const enumArb = (values: readonly string[], misses: string[]) => withValid<unknown>(pick(...values), mostly(pick(...values, ...misses), 5));

/** the future as a publish body writes it, from a few hours to years ahead */
const futureArb = fc.oneof(
  pick('2031-05-01T09:30:00Z', '2030-12-31T23:59:59.999+02:00', '2040-02-29T12:00:00-05:30', '2032-07-04T00:00Z', '9999-12-31T23:59:59Z'),
  fc.date({ min: new Date('2031-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
);

const scheduledForArb = withValid<unknown>(
  futureArb,
  mostly(
    fc.oneof(
      w(4, futureArb),
      w(
        2,
        pick(
          '2020-01-01T00:00:00Z',
          '2031-05-01',
          '2031-02-30T09:00:00Z',
          '2031-05-01T09:30:00',
          '2031-05-01 09:30:00Z',
          '2031-05-01T24:00:00Z',
          '2031-05-01T09:30:00+24:00',
          '+275760-09-13T00:00:00.000Z',
          '0000-01-01T00:00:00Z',
          'tomorrow',
          '',
        ),
      ),
    ),
    4,
  ),
);

/** each platform's member: its fields as the schema reads them */
function publishMembers(): Record<string, { fields: Fields; required: string[] }> {
  const comment = postTextArb(2200, ['First!', 'Link in bio']);
  return {
    videoshare: {
      fields: {
        title: postTextArb(100, ['Launch', 'Q3 review 😀']),
        description: postTextArb(5000, ['Our launch video', 'Ünïcödé\nlines']),
        tags: withValid<unknown>(
          fc.array(pick('launch', 'news', 'Zoë'), { maxLength: 5 }),
          mostly(
            fc.oneof(w(4, fc.array(postTextArb(100, ['launch', 'news']), { maxLength: 4 })), w(1, fc.array(pick('t'), { minLength: 50, maxLength: 51 }))),
            4,
          ),
        ),
        firstComment: comment,
      },
      required: ['title', 'description'],
    },
    shortvideo: {
      fields: {
        content: postTextArb(2200, ['Launch day', 'Behind the scenes #launch']),
        privacyLevel: enumArb(PRIVACY_LEVELS, ['PUBLIC', 'secret', '']),
        allowComment: boolish,
        allowDuet: boolish,
        allowStitch: boolish,
        commercialContentType: enumArb(COMMERCIAL_CONTENT_TYPES, ['brand', 'Brand_Organic']),
        videoMadeWithAi: boolish,
      },
      required: ['content'],
    },
    photoshare: {
      fields: { format: enumArb(PHOTOSHARE_FORMATS, ['post', 'REEL']), content: postTextArb(2200, ['Launch reel']), firstComment: comment },
      required: ['format', 'content'],
    },
    microblog: { fields: { content: postTextArb(280, ['We launched', 'nope [sandbox:reject]']) }, required: ['content'] },
    socialnet: { fields: { content: postTextArb(5000, ['We launched today']) }, required: ['content'] },
    prosocial: { fields: { content: postTextArb(3000, ['Proud to announce our launch']) }, required: ['content'] },
  };
}

/** `platforms`: one to three members that pass mostly (each a credit), else any of the six with members broken now and then, an unknown one, or none */
function platformsArb(): fc.Arbitrary<unknown> {
  const members = publishMembers();
  const keys = Object.keys(members);
  const valid = fc
    .subarray(keys, { minLength: 1, maxLength: 3 })
    .chain((ks) => fc.tuple(...ks.map((k) => cleanObjectOf(members[k]))).map((vs) => Object.fromEntries(ks.map((k, i) => [k, vs[i]]))));
  const member = (k: string) => fc.oneof(w(5, cleanObjectOf(members[k])), w(3, objectOf(members[k])), w(1, anyJson));
  const loose = fc
    .tuple(
      fc.record(Object.fromEntries(keys.map((k) => [k, member(k)])), { requiredKeys: [] }),
      fc.option(fc.tuple(fc.oneof(pick('myspace', 'Microblog', 'sandbox', '__proto__'), fuzzText), anyJson), { freq: 4 }),
    )
    .map(([ms, extra]) => (extra ? { ...ms, [extra[0]]: extra[1] } : ms));
  return withValid<unknown>(valid, fc.oneof(w(6, valid), w(4, loose), w(1, anyJson)));
}

// ---------------------------------------------------------------------------
// connecting an account (src/publishing/connections.ts)

/** a key of the six platforms mostly, else a near miss (a case, a space, an encoded letter the server decodes), or fuzz text */
const platformKeyArb = withValid(
  pick(...PLATFORM_KEYS),
  fc.oneof(
    w(8, pick(...PLATFORM_KEYS)),
    w(2, pick('Microblog', 'MICROBLOG', 'micro%62log', 'microblog ', 'sandbox', 'myspace', 'twitter', '__proto__', 'constructor', '')),
    w(1, fuzzText),
  ),
);

/**
 * where the browser goes after consenting: absolute http(s) URLs on the allowed origins (RETURN_ORIGINS) up to
 * 1792 characters, then other schemes, relative, broken, with a password, on another origin and one character too long
 */
const returnUrlArb: fc.Arbitrary<unknown> = (() => {
  const long = (n: number) => `https://localhost:1/${'a'.repeat(n - 'https://localhost:1/'.length)}`;
  const [a, b, c, d] = RETURN_ORIGINS;
  const valid = pick(`${a}/settings/accounts`, `${b}/connected?from=fuzz#done`, `${c}/back`, `${d}/zurück?ä=ö`, long(1792));
  const invalid = pick(
    'javascript:alert(1)',
    'ftp://127.0.0.1/x',
    'data:text/html,x',
    '/settings',
    'localhost:3000/x',
    'https://',
    'http://[::1',
    '',
    ' ',
    'https://user:pass@localhost:1/x',
    'https://elsewhere.example/x',
    long(1793),
  );
  return withValid<unknown>(valid, mostly(fc.oneof(w(4, valid), w(2, invalid), w(1, fc.constant(null))), 4));
})();

/** the fields of each body, as the REST route reads them (GraphQL's inputs carry the same) */
export function bodyFields(ctx: InputContext, a: Actor) {
  const projectSettings: Fields = {
    templateName: templateArb,
    userThemeId: idArb(ctx, a, 'theme'),
    presetId: idArb(ctx, a, 'preset'),
    aiEditTemplate: mostly(pick('ai_template_a', 'ai_template_b', 'ai_template_c', 'ai_template_d'), 4),
    captionPositionX: numIn(0, 100),
    captionPositionY: numIn(0, 80),
    magicZooms: boolish,
    magicBrolls: boolish,
    magicBrollsPercentage: numIn(0, 100),
    removeSilencePace: paceArb,
    removeBadTakes: boolish,
    cleanAudio: boolish,
    disableCaptions: boolish,
    hookTitle: hookTitleArb,
    music: musicArb(ctx, a),
    items: itemsArb(ctx, a),
    dictionary: dictionaryArb,
    webhookUrl: webhookUrlArb,
  };
  const clipSettings: Fields = {
    templateName: templateArb,
    userThemeId: idArb(ctx, a, 'theme'),
    minClipLength: clipLengthArb,
    maxClipLength: clipLengthArb,
    faceTracking: boolish,
    webhookUrl: webhookUrlArb,
  };
  return {
    createProject: {
      fields: { title: titleArb, language: languageArb, videoUrl: mediaUrlArb(ctx, 'video'), autoRender: boolish, ...projectSettings },
      required: ['title', 'language', 'videoUrl'],
    },
    uploadProject: { fields: { title: titleArb, language: languageArb, ...projectSettings }, required: ['title', 'language'] },
    updateProject: {
      fields: {
        words: wordsArb,
        captionPositionX: numIn(0, 100),
        captionPositionY: numIn(0, 80),
        disableCaptions: boolish,
        hookTitle: hookTitleArb,
        items: itemsArb(ctx, a),
        music: musicArb(ctx, a),
        removeBadTakes: boolish,
        removeSilencePace: paceArb,
      },
      required: [],
    },
    exportProject: { fields: { fps: numIn(1, 60), width: numIn(100, 4000, true), height: numIn(100, 4000, true), webhookUrl: webhookUrlArb }, required: [] },
    updatePreset: {
      fields: {
        name: mostly(fc.string({ minLength: 1, maxLength: 100 }), 3),
        description: mostly(fc.oneof(fc.string({ maxLength: 500 }), fc.constant(null)), 3),
        captions: boolish,
        hookTitle: boolish,
        magicZooms: boolish,
        magicBrolls: boolish,
        magicBrollsPercentage: numIn(0, 100, true),
        magicBrollsTransitions: boolish,
        logo: boolish,
        colorFilter: boolish,
        cleanAudio: boolish,
        eyeContactCorrection: boolish,
        music: boolish,
        musicVolume: numIn(1, 100, true),
        transitionSoundVolume: mostly(fc.oneof(fc.integer({ min: -1, max: 101 }), fc.constant(null)), 4),
      },
      required: [],
    },
    userTheme: {
      fields: {
        name: mostly(fc.string({ minLength: 1, maxLength: 100 }), 3),
        basedOn: mostly(pick(...CAPTION_TEMPLATES.map((t) => t.name), 'fancy'), 4),
        style: styleArb,
      },
      required: ['name'],
    },
    createUserMedia: { fields: { url: mediaUrlArb(ctx, 'media') }, required: ['url'] },
    createMagicClips: {
      fields: { title: titleArb, language: languageArb, videoshareUrl: videoshareUrlArb(ctx), ...clipSettings },
      required: ['title', 'language', 'videoshareUrl'],
    },
    uploadMagicClips: { fields: { title: titleArb, language: languageArb, ...clipSettings }, required: ['title', 'language'] },
    publish: {
      fields: {
        platforms: platformsArb(),
        scheduledFor: scheduledForArb,
        // the primary profile passes; the second has shortvideo private and microblog only (400, 412);
        // the spare one has no prosocial account and passes until a disconnect reaches its others, then is refused for them (412)
        profileId: withValid<unknown>(fc.oneof(w(4, fc.constant(a.profiles[0])), w(1, fc.constant(a.spareProfile))), mostly(idArb(ctx, a, 'profile'), 6)),
      },
      required: ['platforms'],
    },
    connectAccount: { fields: { returnUrl: returnUrlArb }, required: [] },
    createProfile: { fields: { name: mostly(fc.string({ minLength: 1, maxLength: 100 }), 3), primary: boolish }, required: ['name'] },
    updateProfile: { fields: { name: mostly(fc.string({ minLength: 1, maxLength: 100 }), 3), primary: boolish }, required: [] },
  } satisfies Record<string, { fields: Fields; required: string[] }>;
}

export type BodyName = keyof ReturnType<typeof bodyFields>;

/** a body that should pass: its required fields and up to two others, each drawn from its valid values */
function cleanObjectOf({ fields, required }: { fields: Fields; required: string[] }): fc.Arbitrary<Record<string, unknown>> {
  const optional = Object.keys(fields).filter((k) => !required.includes(k));
  return fc
    .tuple(
      fc.record(Object.fromEntries(Object.entries(fields).map(([k, a]) => [k, validOf(a)]))),
      fc.subarray(optional, { maxLength: Math.min(2, optional.length) }),
    )
    .map(([all, extra]) => Object.fromEntries([...required, ...extra].filter((k) => k in all).map((k) => [k, all[k]])));
}

/** an object of `fields`: the required ones mostly there, the others sometimes, now and then a field the body does not have */
function objectOf({ fields, required }: { fields: Fields; required: string[] }): fc.Arbitrary<Record<string, unknown>> {
  const keep = fc.record(fields, { requiredKeys: [] });
  const needed = fc.record(Object.fromEntries(required.map((k) => [k, fields[k]])));
  return fc
    .tuple(
      needed,
      keep,
      fc.integer({ min: 0, max: 9 }),
      fc.option(fc.tuple(fc.oneof(fuzzText, pick('unknown', 'id', 'userId', 'status')), anyJson), { freq: 6 }),
    )
    .map(([req, rest, drop, extra]) => {
      const body: Record<string, unknown> = { ...rest, ...req };
      // now and then a required field goes missing
      if (drop === 0 && required.length) delete body[required[0]];
      if (extra) body[extra[0]] = extra[1];
      return body;
    });
}

/** A JSON body: mostly an object of the route's fields, else another JSON value, else bytes that are not JSON. */
export type Body = { json: unknown } | { raw: Buffer };

export const BROKEN_JSON = [
  '',
  '{',
  '{"title":',
  '{"title":"x",}',
  "{'title':'x'}",
  '{"title":"x"}garbage',
  '{"title":"\\x"}',
  '{"title":"\\ud800"}',
  '{"a":1,"a":2}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  'null',
  'true',
  '"string"',
  '[]',
  '123',
  'NaN',
  '\ufeff{}',
  '{}{}',
  '{"title": "x"\u0000}',
];

export function bodyArb(spec: { fields: Fields; required: string[] }): fc.Arbitrary<Body> {
  return fc.oneof(
    w(
      4,
      cleanObjectOf(spec).map((json) => ({ json: safeUrls(json) })),
    ),
    w(
      6,
      objectOf(spec).map((json) => ({ json: safeUrls(json) })),
    ),
    w(
      1,
      anyJson.map((json) => ({ json: safeUrls(json) })),
    ),
    w(
      2,
      fc
        .oneof(
          fc.constantFrom(...BROKEN_JSON).map((t) => Buffer.from(t)),
          fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
          objectOf(spec).chain((o) => {
            const text = toJson(safeUrls(o));
            return fc.integer({ min: 0, max: Math.max(0, text.length - 1) }).map((cut) => Buffer.from(text.slice(0, cut)));
          }),
          pick(Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), Buffer.from('{"title":"\xff\xfe"}', 'latin1'), Buffer.from('\u007b\u007d', 'utf16le')),
        )
        .map((raw) => ({ raw })),
    ),
  );
}

export const bodyBytes = (b: Body) => ('raw' in b ? b.raw : Buffer.from(toJson(b.json)));

// ---------------------------------------------------------------------------
// the /v1 routes

export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** as rest/routes.ts names it */
  url: string;
  /** the kind of the id its path parameter :id or :profileId takes */
  id?: IdKind;
  /** its path has a platform key, :platform */
  platform?: true;
  body?: BodyName;
  form?: 'media' | 'project' | 'clips';
  query?: Record<string, (ctx: InputContext, a: Actor) => fc.Arbitrary<string>>;
}

const limitQuery = () =>
  fc.oneof(
    w(4, fc.integer({ min: 1, max: 100 }).map(String)),
    w(1, pick('0', '-1', '101', '1e2', '2.5', '', ' 5', '+5', '0x10', '9999999999', 'ten')),
    w(1, fuzzText),
  );
const cursorQuery = (ctx: InputContext, a: Actor) => fc.oneof(w(3, idArb(ctx, a, 'media')), w(2, idArb(ctx, a, 'preset')), w(1, fuzzText));

/** a query parameter: one of `values` mostly, a near miss sometimes, fuzz text sometimes */
const enumQuery = (values: readonly string[], misses: string[]) =>
  withValid(pick(...values), fc.oneof(w(5, pick(...values)), w(1, pick(...misses)), w(1, fuzzText)));

/** an instant of the listing and the statistics: date-times (and dates, which the listing takes) from the past to the near future, then what no calendar has and the edges of the range */
const instantQuery = () => {
  const valid = fc.oneof(
    fc.date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2027-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
    fc.date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2027-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    pick('2026-05-01T09:30:00Z', '2026-05-01T09:30:00+02:00', '2026-05-01'),
  );
  return withValid(
    valid,
    fc.oneof(
      w(5, valid),
      w(
        2,
        pick(
          '2026-02-30',
          '2026-13-01',
          '2026-05-01T09:30:00',
          '2026-05-01T25:00:00Z',
          '1970-01-01T00:00:00Z',
          '1969-12-31T23:59:59Z',
          '0001-01-01T00:00:00Z',
          '0000-01-01',
          '0000-06-01T00:00:00Z',
          '9999-12-30T23:59:59Z',
          '9999-12-31T00:00:00Z',
          '9999-12-31T23:59:59-14:00',
          '+275760-09-13T00:00:00.000Z',
          'yesterday',
          '0',
          '',
        ),
      ),
      w(1, fuzzText),
    ),
  );
};

/**
 * a listing cursor: a nextCursor the listing gave (of one of its sorts), a
 * cursor written here with members of the right types but values the
 * database may not hold (a year past its range, a day no calendar has, a NUL)
 * or of a sort the query does not ask for, another id, or fuzz text
 */
const publicationCursorQuery = (ctx: InputContext, a: Actor) => {
  const crafted = fc
    .tuple(
      pick(...SORT_KEYS, 'likes'),
      pick(...DIRECTIONS, 'up'),
      fc.oneof(
        fc.integer({ min: -1, max: 5000 }),
        pick(1.5, 2 ** 31, 2 ** 53, 1e308, -1e308),
        pick('2026-05-01T09:30:00.000Z', '+275760-09-13T00:00:00.000Z', '-271821-04-20T00:00:00.000Z', '0000-12-31T00:00:00.000Z', '1', '0001-01-01T00:00:00Z'),
      ),
      fc.oneof(fc.constantFrom(...a.publications), pick('', 'pub_\u0000', 'x'.repeat(80), '😀')),
      pick(
        '2026-05-01T09:30:00.000Z',
        new Date(Date.now() + 3_600_000).toISOString(),
        '1970-01-01T00:00:00.000Z',
        '+275760-09-13T00:00:00.000Z',
        '-000001-01-01T00:00:00.000Z',
      ),
      pick('2026-05-01', '1970-01-01', '2026-02-30', '2026-99-99', '0000-00-00', '9999-12-31'),
      fc.integer({ min: 0, max: 5 }),
    )
    .map(([sortBy, direction, key, id, asOf, day, shape]) => {
      const members: unknown[] = [sortBy, direction, key, id, asOf, day];
      // now and then a member short, one more, or not an array
      const value = shape === 0 ? members.slice(0, 5) : shape === 1 ? [...members, 1] : shape === 2 ? { sortBy, direction, key, id, asOf, day } : members;
      return Buffer.from(JSON.stringify(value)).toString('base64url');
    });
  const issued = a.listingCursors.length ? fc.constantFrom(...a.listingCursors) : crafted;
  return withValid(issued, fc.oneof(w(3, issued), w(3, crafted), w(1, idArb(ctx, a, 'publication')), w(1, fuzzText)));
};

const profileQuery = (ctx: InputContext, a: Actor) => idArb(ctx, a, 'profile');

/** the query of both statistics routes */
const STATS_QUERY = {
  from: instantQuery,
  to: instantQuery,
  platform: () => enumQuery(PLATFORM_KEYS, ['Microblog', 'myspace', 'microblog,socialnet', '']),
  metric: () => enumQuery(STATS_METRICS, ['Views', 'likes', '']),
} satisfies RestRoute['query'];

/** the listing's query, by parameter */
const LISTING_QUERY = {
  platform: STATS_QUERY.platform,
  profileId: profileQuery,
  from: instantQuery,
  to: instantQuery,
  sortBy: () => enumQuery(SORT_KEYS, ['PublishedAt', 'date', 'likes', '']),
  direction: () => enumQuery(DIRECTIONS, ['ASC', 'up', '']),
  limit: limitQuery,
  cursor: publicationCursorQuery,
} satisfies RestRoute['query'];

export const REST_ROUTES: RestRoute[] = [
  { method: 'GET', url: '/v1/languages' },
  { method: 'GET', url: '/v1/templates' },
  { method: 'GET', url: '/v1/hook-title/templates' },
  { method: 'GET', url: '/v1/templates/:name', id: 'captionTemplate' },
  { method: 'GET', url: '/v1/hook-title/templates/:name', id: 'hookTemplate' },
  { method: 'GET', url: '/v1/music' },
  { method: 'POST', url: '/v1/user-media', body: 'createUserMedia' },
  { method: 'POST', url: '/v1/user-media/upload', form: 'media' },
  {
    method: 'GET',
    url: '/v1/user-media',
    query: {
      limit: limitQuery,
      cursor: cursorQuery,
      type: () => fc.oneof(w(4, pick('VIDEO', 'AUDIO', 'IMAGE')), w(1, pick('video', 'PDF', '')), w(1, fuzzText)),
    },
  },
  // valid ids name the pending entry only: a delete is refused while it is fetched, changing nothing
  { method: 'DELETE', url: '/v1/user-media/:id', id: 'pendingMedia' },
  { method: 'GET', url: '/v1/presets', query: { limit: limitQuery, cursor: cursorQuery } },
  { method: 'GET', url: '/v1/presets/:id', id: 'preset' },
  { method: 'PUT', url: '/v1/presets/:id', id: 'preset', body: 'updatePreset' },
  { method: 'GET', url: '/v1/themes' },
  { method: 'GET', url: '/v1/themes/:id', id: 'theme' },
  { method: 'POST', url: '/v1/themes', body: 'userTheme' },
  { method: 'PUT', url: '/v1/themes/:id', id: 'theme', body: 'userTheme' },
  { method: 'DELETE', url: '/v1/themes/:id', id: 'theme' },
  { method: 'POST', url: '/v1/projects', body: 'createProject' },
  { method: 'POST', url: '/v1/projects/upload', form: 'project' },
  { method: 'POST', url: '/v1/projects/magic-clips', body: 'createMagicClips' },
  { method: 'POST', url: '/v1/projects/magic-clips/upload', form: 'clips' },
  {
    method: 'GET',
    url: '/v1/projects',
    query: {
      limit: limitQuery,
      cursor: cursorQuery,
      status: () => fc.oneof(w(4, pick('completed', 'failed', 'transcribing')), w(1, pick('done', 'COMPLETED', '')), w(1, fuzzText)),
      kind: () => fc.oneof(w(4, pick('edit', 'magic_clips')), w(1, pick('clips', '')), w(1, fuzzText)),
      q: () => fc.oneof(w(4, pick('talk', 'Row', '%', '_')), w(1, fc.string({ minLength: 190, maxLength: 210 })), w(1, fuzzText)),
    },
  },
  { method: 'GET', url: '/v1/projects/:id', id: 'project' },
  { method: 'PUT', url: '/v1/projects/:id', id: 'project', body: 'updateProject' },
  // the update's fields without the second to draw: refused, nothing drawn (preview-frame.test.ts draws)
  { method: 'POST', url: '/v1/projects/:id/preview', id: 'project', body: 'updateProject' },
  // valid ids name the busy project only: its publication is being delivered, so a delete is refused, changing nothing
  { method: 'DELETE', url: '/v1/projects/:id', id: 'busyProject' },
  { method: 'POST', url: '/v1/projects/:id/export', id: 'project', body: 'exportProject' },
  {
    method: 'GET',
    url: '/v1/projects/:id/captions',
    id: 'project',
    query: { format: () => fc.oneof(w(4, pick('srt', 'vtt')), w(1, pick('SRT', 'txt', '')), w(1, fuzzText)) },
  },
  { method: 'POST', url: '/v1/projects/:id/publish', id: 'exportedProject', body: 'publish' },
  { method: 'GET', url: '/v1/projects/published', query: LISTING_QUERY },
  { method: 'GET', url: '/v1/projects/published/:id', id: 'publication' },
  { method: 'DELETE', url: '/v1/projects/published/:id', id: 'publication' },
  { method: 'GET', url: '/v1/publishing/stats/profiles/:profileId', id: 'profile', query: STATS_QUERY },
  { method: 'GET', url: '/v1/publishing/stats', query: STATS_QUERY },
  { method: 'GET', url: '/v1/platforms' },
  { method: 'GET', url: '/v1/profiles' },
  { method: 'POST', url: '/v1/profiles/:profileId/accounts/:platform/connect', id: 'profile', platform: true, body: 'connectAccount' },
  // valid ids name the spare profile only (fuzz-server.ts)
  { method: 'DELETE', url: '/v1/profiles/:profileId/accounts/:platform', id: 'spareProfile', platform: true },
  { method: 'POST', url: '/v1/profiles', body: 'createProfile' },
  { method: 'PUT', url: '/v1/profiles/:id', id: 'profile', body: 'updateProfile' },
  // the actor's profiles hold accounts and publications: a delete is refused, changing nothing
  { method: 'DELETE', url: '/v1/profiles/:id', id: 'profile' },
  { method: 'GET', url: '/v1/account' },
  { method: 'GET', url: '/v1/magic-clips/calibration' },
  {
    method: 'GET',
    url: '/v1/account/ledger',
    query: { limit: limitQuery, cursor: cursorQuery, kind: () => fc.oneof(w(4, pick('api', 'ai', 'clip')), w(1, pick('API', 'gold', '')), w(1, fuzzText)) },
  },
  { method: 'GET', url: '/v1/api-keys' },
  { method: 'POST', url: '/v1/api-keys' },
  // valid ids name the actor's spare keys only, never the one it sends
  { method: 'DELETE', url: '/v1/api-keys/:id', id: 'apiKey' },
];

/**
 * encodeURIComponent, except that an unpaired surrogate (which it refuses) is
 * written as the three bytes its code unit would take: invalid UTF-8 the server must refuse.
 */
export const pct = (s: string) =>
  s.replace(/[\ud800-\udbff][\udc00-\udfff]|[^]/g, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      const u = c.charCodeAt(0);
      return [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    }
  });

/** how a path segment is written: encoded as a client would, or as is */
const encodeSegment = (id: string, raw: boolean) => (raw ? id.replace(/[\s?#\u0000-\u001f\u007f-\uffff]/g, pct) : pct(id));

function pathOf(ctx: InputContext, a: Actor, r: RestRoute): fc.Arbitrary<string> {
  if (!r.id) return fc.constant(r.url);
  return fc
    .tuple(fc.oneof(w(3, idArb(ctx, a, r.id)), w(1, idArb(ctx, a, 'processingProject'))), r.platform ? platformKeyArb : fc.constant(''), fc.boolean())
    .map(([id, platform, raw]) => {
      const idSegment = encodeSegment(id, raw && r.id !== 'project' && r.id !== 'exportedProject');
      return r.url.replace(/:\w+/g, (name) => (name === ':platform' ? encodeSegment(platform, raw) : idSegment));
    });
}

/** credentials as a client sends them: mostly the actor's key, else none or a wrong one */
export function keyHeaders(a: Actor): fc.Arbitrary<Array<[string, string]>> {
  return fc.oneof(
    w(12, fc.constant([['x-api-key', a.key]] as Array<[string, string]>)),
    w(1, fc.constant<Array<[string, string]>>([])),
    w(1, pick<Array<[string, string]>>([['x-api-key', 'sk-wrong']], [['x-api-key', `sk-${'x'.repeat(43)}`]], [['authorization', 'Bearer sk-nope']])),
  );
}

const idempotencyHeader = fc.option(
  fc.oneof(fc.uuid(), pick('fuzz-shared-key', 'retry-1')).map((k): [string, string] => ['idempotency-key', k]),
  { freq: 4 },
);

/** a request to one /v1 route with a JSON body (or none), its path id and query drawn as above */
export function restJsonCase(ctx: InputContext): fc.Arbitrary<HttpCase> {
  const routes = REST_ROUTES.filter((r) => !r.form);
  return fc.integer({ min: 0, max: ctx.actors.length - 1 }).chain((ai) => {
    const a = ctx.actors[ai];
    const fields = bodyFields(ctx, a);
    return fc.constantFrom(...routes).chain((r) =>
      fc
        .record({
          path: pathOf(ctx, a, r),
          key: keyHeaders(a),
          body: r.body ? fc.option(bodyArb(fields[r.body]), { freq: 12 }) : fc.constant(null),
          query: r.query ? queryOf(ctx, a, r) : fc.constant(''),
          idem: r.method === 'POST' ? idempotencyHeader : fc.constant(null),
          type: pick('application/json', 'application/json', 'application/json; charset=utf-8', 'application/json;charset=UTF-8'),
        })
        .map(({ path, key, body, query, idem, type }) => {
          const headers: Array<[string, string]> = [...key];
          if (idem) headers.push(idem);
          if (body) headers.push(['content-type', type]);
          return { label: `${r.method} ${r.url}`, method: r.method, target: path + query, headers, body: body ? bodyBytes(body) : undefined };
        }),
    );
  });
}

function queryOf(ctx: InputContext, a: Actor, r: RestRoute): fc.Arbitrary<string> {
  const names = Object.keys(r.query ?? {});
  const param = fc.oneof(
    w(
      6,
      fc.constantFrom(...names).chain((n) => r.query![n](ctx, a).map((v) => [n, v] as const)),
    ),
    w(1, fc.tuple(fc.oneof(fuzzText, pick('first', 'after', 'page', 'limit[]', 'cursor[a]', '__proto__')), fuzzText)),
  );
  const params = fc.oneof(w(4, fc.uniqueArray(param, { maxLength: 3, selector: ([name]) => name })), w(1, fc.array(param, { maxLength: 4 })));
  return fc.tuple(params, fc.boolean()).map(([params, raw]) => {
    if (!params.length) return '';
    const enc = (s: string) => (raw ? s.replace(/[\s#&=\u0000-\u001f\u007f-\uffff]/g, pct) : pct(s));
    return `?${params.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')}`;
  });
}

/** query strings and path segments, on every GET of /v1, on paths no route has, and on the file route */
export function queryPathCase(ctx: InputContext): fc.Arbitrary<HttpCase> {
  return fc.integer({ min: 0, max: ctx.actors.length - 1 }).chain((ai) => {
    const a = ctx.actors[ai];
    const routeCase = fc.constantFrom(...REST_ROUTES.filter((r) => r.method === 'GET')).chain((r) =>
      fc
        .tuple(pathOf(ctx, a, r), r.query ? queryOf(ctx, a, r) : queryOf(ctx, a, { ...r, query: { limit: limitQuery } }), keyHeaders(a))
        .map(([path, query, key]) => ({
          label: `GET ${r.url}`,
          method: 'GET',
          target: path + query,
          headers: key,
        })),
    );
    const weirdPath = fc
      .tuple(
        fc.oneof(
          pick(
            '/v1',
            '/v1/',
            '/v1/projects/',
            '/v1//projects',
            '/v1/projects/%',
            '/v1/projects/%zz',
            '/v1/projects/%00',
            '/v1/projects/%FF%FE',
            '/v1/projects/%C0%AF',
            '/v1/projects/..%2F..%2Fpresets',
            '/v1/projects/a/b/c',
            '/v1/PROJECTS',
            '/v1/presets/../projects',
            '/V1/languages',
            '/v1/languages/',
            '/v1/languages;x=1',
            '/v1/nothing',
            '/v2/projects',
            '/',
            '/graphql/',
            '/healthz/x',
            '/files',
            '/files/',
            '/files/..%2F..%2Fetc%2Fpasswd',
            '*',
            `/v1/projects/${'a'.repeat(8000)}`,
            `/v1/${'x/'.repeat(500)}`,
          ),
          fc.array(fuzzText, { minLength: 1, maxLength: 4 }).map((segs) => `/v1/${segs.map(pct).join('/')}`),
        ),
        pick('GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'),
        keyHeaders(a),
      )
      .map(([target, method, key]) => ({ label: `${method} (unrouted)`, method, target, headers: key }));
    const wrongMethod = fc
      .tuple(fc.constantFrom(...REST_ROUTES), pick('DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'GET', 'POST', 'PUT'), keyHeaders(a))
      .chain(([r, method, key]) => pathOf(ctx, a, r).map((path) => ({ label: `${method} ${r.url}`, method, target: path, headers: key })));
    const graphqlGet = fc
      .tuple(
        fc.oneof(
          pick(
            '{ languages { code } }',
            '{ presets { edges { node { id } } } }',
            'mutation { createApiKey { apiKey } }',
            '{ project(id: "x") { id } }',
            '{',
            '',
          ),
          fuzzText,
        ),
        fc.option(fc.oneof(pick('{}', '{"id":"x"}', 'not json', '[]', 'null', '{"a":'), fuzzText)),
        fc.option(fc.oneof(pick('{}', '{"persistedQuery":{"sha256Hash":"x","version":1}}', 'x'), fuzzText)),
        fc.option(fuzzText),
        keyHeaders(a),
      )
      .map(([query, variables, extensions, operationName, key]) => {
        const q = new URLSearchParams({ query });
        if (variables !== null) q.set('variables', variables);
        if (extensions !== null) q.set('extensions', extensions);
        if (operationName !== null) q.set('operationName', operationName);
        return {
          label: 'GET /graphql',
          method: 'GET',
          target: `/graphql?${q.toString()}`,
          headers: [...key, ['accept', 'application/json']] as Array<[string, string]>,
        };
      });
    return fc.oneof(w(6, routeCase), w(2, weirdPath), w(1, wrongMethod), w(2, graphqlGet), w(3, fileCase(ctx)));
  });
}

/** GET and HEAD of the file route: a real signed link, and links broken in each of their parts, with ranges and conditions */
export function fileCase(ctx: InputContext): fc.Arbitrary<HttpCase> {
  const f = ctx.signedFile;
  const now = Math.floor(Date.now() / 1000);
  const target = fc.oneof(
    w(4, fc.constant(f.path)),
    w(1, fc.constant(ctx.signedPathFor(f.key, now + 3600, 'tone.mp3'))),
    w(1, fc.constant(ctx.signedPathFor(f.key, now - 10))),
    w(1, fc.constant(ctx.signedPathFor(`${f.key}.missing`, now + 3600))),
    w(1, fc.constant(ctx.signedPathFor('../../url-signing.key', now + 3600))),
    w(1, fc.constant(ctx.signedPathFor('media/../../etc/passwd', now + 3600))),
    w(1, fc.constant(ctx.signedPathFor(f.key, now + 3600, 'a"\r\nb\u0000😀.mp3'))),
    w(
      2,
      fc.tuple(fc.option(fuzzText), fc.option(fuzzText), fc.option(fuzzText)).map(([exp, sig, dl]) => {
        const q = new URLSearchParams();
        if (exp !== null) q.set('exp', exp);
        if (sig !== null) q.set('sig', sig);
        if (dl !== null) q.set('dl', dl);
        return `/files/${f.key.split('/').map(pct).join('/')}?${q.toString()}`;
      }),
    ),
    w(1, fc.constant(`${f.path}&sig=again&exp=1`)),
    w(1, fc.constant(f.path.replace(/sig=[^&]+/, 'sig=' + 'A'.repeat(43)))),
  );
  const range = fc.option(
    fc.oneof(
      pick(
        'bytes=0-0',
        'bytes=0-99',
        'bytes=-10',
        'bytes=10-',
        `bytes=${f.size}-`,
        `bytes=${f.size - 1}-${f.size + 100}`,
        'bytes=5-1',
        'bytes=0-1,5-9',
        'items=0-1',
        'bytes=',
        'bytes=-0',
        'bytes=99999999999999999999-',
      ),
      fuzzText,
    ),
  );
  const cond = fc.option(
    fc.tuple(
      pick('if-none-match', 'if-modified-since', 'if-range', 'if-match'),
      fc.oneof(pick('*', '"x"', 'W/"x"', new Date().toUTCString(), 'Thu, 01 Jan 1970 00:00:00 GMT', 'yesterday'), fuzzText),
    ),
  );
  return fc.tuple(target, pick('GET', 'GET', 'HEAD'), range, cond).map(([t, method, r, c]) => {
    const headers: Array<[string, string]> = [];
    if (r !== null) headers.push(['range', r]);
    if (c !== null) headers.push(c);
    return { label: `${method} /files/*`, method, target: t, headers };
  });
}

// ---------------------------------------------------------------------------
// headers

/** one request of any route (REST, GraphQL, file) whose headers are drawn: content types, accept, keys in their forms, Idempotency-Key and more */
export function headerCase(ctx: InputContext): fc.Arbitrary<HttpCase> {
  return fc.integer({ min: 0, max: ctx.actors.length - 1 }).chain((ai) => {
    const a = ctx.actors[ai];
    const base = fc.oneof(w(5, restJsonCase({ ...ctx, actors: [a] })), w(3, graphqlCase({ ...ctx, actors: [a] })), w(1, fileCase(ctx)));
    const contentType = fc.option(
      fc.oneof(
        pick(
          'application/json',
          'APPLICATION/JSON',
          'application/json; charset=latin1',
          'application/json; charset=utf-16',
          'application/json; boundary=x',
          'application/json, text/plain',
          'application/jsonx',
          'application/graphql',
          'application/graphql-response+json',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
          'multipart/form-data; boundary=',
          'text/plain',
          'text/json',
          'application/octet-stream',
          '*/*',
          ';',
          '',
          'application/json;' + 'a'.repeat(2000),
        ),
        fuzzText,
      ),
      { freq: 3 },
    );
    const accept = fc.option(
      fc.oneof(
        pick(
          '*/*',
          'application/json',
          'application/graphql-response+json',
          'application/json; charset=latin1',
          'text/html',
          'text/event-stream',
          'multipart/mixed',
          'multipart/mixed; deferSpec=20220824, application/json',
          'application/xml, text/html;q=0.9',
          'application/*',
          '',
          'garbage/;;;',
        ),
        fuzzText,
      ),
    );
    const auth = fc.oneof(
      w(3, fc.constant<Array<[string, string]> | null>(null)),
      w(
        4,
        pick<Array<[string, string]>>(
          [['x-api-key', a.key]],
          [['X-API-KEY', ` ${a.key} `]],
          [['x-api-key', `${a.key}x`]],
          [['x-api-key', a.key.slice(0, -1)]],
          [['x-api-key', `Bearer ${a.key}`]],
          [['authorization', `Bearer ${a.key}`]],
          [['Authorization', `bearer    ${a.key}`]],
          [['authorization', `Basic ${Buffer.from(`${a.key}:`).toString('base64')}`]],
          [['authorization', a.key]],
          [['authorization', 'Bearer ']],
          [['x-api-key', '']],
          [['x-api-key', '   ']],
          [['x-api-key', 'sk-']],
          [['x-api-key', `sk-${'a'.repeat(300)}`]],
          [
            ['x-api-key', a.key],
            ['x-api-key', a.key],
          ],
          [
            ['x-api-key', 'sk-wrong'],
            ['authorization', `Bearer ${a.key}`],
          ],
          [
            ['x-api-key', a.key],
            ['authorization', 'Bearer sk-wrong'],
          ],
        ),
      ),
      w(
        1,
        fuzzText.map((t): Array<[string, string]> => [['x-api-key', headerSafe(t)]]),
      ),
    );
    const idem = fc.option(
      fc.oneof(
        fc.uuid(),
        pick('fuzz-header-key', 'fuzz-header-key', '"quoted"', '""', '', ' ', 'a'.repeat(255), 'a'.repeat(256), 'tab\there', 'é', '😀'),
        fuzzText.map(headerSafe),
      ),
      { freq: 2 },
    );
    const extra = fc.array(
      fc.oneof(
        pick<[string, string]>(
          ['content-encoding', 'gzip'],
          ['content-encoding', 'br'],
          ['content-encoding', 'identity'],
          ['expect', '100-continue'],
          ['expect', 'nothing'],
          ['x-request-id', 'a'.repeat(4000)],
          ['x-request-id', '../../'],
          ['x-forwarded-for', '1.2.3.4'],
          ['origin', 'https://evil.test'],
          ['access-control-request-method', 'POST'],
          ['transfer-encoding', 'identity'],
          ['connection', 'keep-alive, upgrade'],
          ['upgrade', 'websocket'],
          ['range', 'bytes=0-1'],
          ['cookie', 'a=b'],
          ['te', 'trailers'],
        ),
        fc.tuple(pick('x-fuzz', 'accept-language', 'user-agent', 'referer', 'x-http-method-override'), fuzzText.map(headerSafe)),
      ),
      { maxLength: 3 },
    );
    return fc.tuple(base, contentType, accept, auth, idem, extra).map(([c, type, acc, keys, key, more]) => {
      let headers = c.headers.slice();
      if (keys) headers = [...headers.filter(([n]) => !['x-api-key', 'authorization'].includes(n.toLowerCase())), ...keys];
      if (type !== null) headers = [...headers.filter(([n]) => n.toLowerCase() !== 'content-type'), ['content-type', headerSafe(type)]];
      if (acc !== null) headers = [...headers.filter(([n]) => n.toLowerCase() !== 'accept'), ['accept', headerSafe(acc)]];
      if (key !== null) headers = [...headers.filter(([n]) => n.toLowerCase() !== 'idempotency-key'), ['Idempotency-Key', key]];
      return { ...c, headers: [...headers, ...more] };
    });
  });
}

/** a header value a client can write: no CR or LF (those are framing: the raw phase sends them) */
export const headerSafe = (s: string) => s.replace(/[\r\n]/g, ' ');

// ---------------------------------------------------------------------------
// multipart forms

export const BOUNDARY = 'fuzzB0undary';

type Part = { name: string; value: string | Buffer; filename?: string; type?: string };

function filePart(ctx: InputContext, name: fc.Arbitrary<string>): fc.Arbitrary<Part> {
  const u = ctx.uploads;
  return fc
    .tuple(
      name,
      fc.oneof(w(6, fc.constant(u.video)), w(2, pick(u.audio, u.image)), w(2, pick(u.noise, u.page, u.empty)), w(1, fc.constant(u.tooLarge))),
      fc.oneof(
        w(5, pick('talk.mp4', 'clip.mov', 'tone.mp3', 'image.png')),
        w(1, pick('', 'noext', '../../evil.mp4', 'a"b.mp4', '😀.mp4', 'a'.repeat(300) + '.mp4')),
        w(1, fuzzText.map(headerSafe)),
      ),
      fc.option(pick('video/mp4', 'video/quicktime', 'audio/mpeg', 'image/png', 'application/octet-stream', 'text/html', ''), { freq: 4 }),
    )
    .map(([n, value, filename, type]) => ({ name: n, value, filename: filename.replace(/"/g, '%22'), ...(type !== null ? { type } : {}) }));
}

function textPartsOf(ctx: InputContext, a: Actor, body: 'uploadProject' | 'uploadMagicClips' = 'uploadProject'): fc.Arbitrary<Part[]> {
  const f = bodyFields(ctx, a)[body];
  // form fields are text: JSON for objects and arrays, as a client writes them
  const asText = (v: unknown) => (typeof v === 'string' ? v : v instanceof RawJson ? v.text : toJson(v));
  return fc
    .oneof(cleanObjectOf(f), objectOf(f))
    .map((o) => Object.entries(o).map(([name, v]) => ({ name: headerSafe(name).replace(/"/g, '%22'), value: asText(safeUrls(v)) })));
}

/** a multipart request to an upload route of /v1 or to /graphql, its parts in any order, cut off now and then */
export function multipartCase(ctx: InputContext): fc.Arbitrary<HttpCase> {
  return fc.integer({ min: 0, max: ctx.actors.length - 1 }).chain((ai) => {
    const a = ctx.actors[ai];
    const restForm = fc.constantFrom<'media' | 'project' | 'clips'>('media', 'project', 'clips').chain((form) =>
      fc
        .tuple(
          form === 'project'
            ? textPartsOf(ctx, a)
            : form === 'clips'
              ? textPartsOf(ctx, a, 'uploadMagicClips')
              : fc.array(fc.record({ name: fc.oneof(pick('title', 'file', 'x'), fuzzText.map(headerSafe)), value: fuzzText }), { maxLength: 2 }),
          fc.array(filePart(ctx, fc.oneof(w(8, fc.constant('file')), w(1, pick('File', 'upload', 'files')))), { minLength: 0, maxLength: 2 }),
          fc.double({ min: 0, max: 1, noNaN: true }),
        )
        .chain(([texts, files, fileAt]) =>
          // the file first, last or between the fields
          fc
            .constant([...texts.slice(0, Math.floor(texts.length * fileAt)), ...files, ...texts.slice(Math.floor(texts.length * fileAt))] as Part[])
            .map((parts) => ({
              route: { project: '/v1/projects/upload', clips: '/v1/projects/magic-clips/upload', media: '/v1/user-media/upload' }[form],
              parts,
            })),
        ),
    );
    const graphqlForm = fc
      .tuple(
        fc.constantFrom('uploadUserMedia', 'uploadProject', 'uploadMagicClips'),
        fc.oneof(objectOf(bodyFields(ctx, a).uploadProject), objectOf(bodyFields(ctx, a).uploadMagicClips)),
        fc.oneof(
          w(6, fc.constant('{"0":["variables.file"]}')),
          w(
            2,
            pick(
              '{"0":["variables.input"]}',
              '{"0":["variables.file"],"1":["variables.file"]}',
              '{"0":"variables.file"}',
              '{}',
              '[]',
              'null',
              '{"0":["variables.nope.deep"]}',
              '{',
              '',
            ),
          ),
          w(1, fuzzText),
        ),
        fc.oneof(
          w(6, fc.constant('ok')),
          w(1, pick('not json', '{}', '[]', '{"query":1}', '{"query":"{"}', '{"query":"mutation { createApiKey { apiKey } }"}')),
        ),
        filePart(ctx, fc.oneof(w(8, fc.constant('0')), w(1, pick('1', 'file', '')))),
        fc.integer({ min: 0, max: 7 }),
      )
      .map(([op, input, map, opsKind, file, order]) => {
        const query = {
          uploadUserMedia: 'mutation($file: Upload!) { uploadUserMedia(file: $file) { userMediaId } }',
          uploadProject: 'mutation($file: Upload!, $input: UploadProjectInput!) { uploadProject(file: $file, input: $input) { id status } }',
          uploadMagicClips: 'mutation($file: Upload!, $input: UploadMagicClipsInput!) { uploadMagicClips(file: $file, input: $input) { id status } }',
        }[op];
        const operations =
          opsKind === 'ok' ? toJson({ query, variables: { file: null, ...(op !== 'uploadUserMedia' ? { input: safeUrls(input) } : {}) } }) : opsKind;
        const parts: Part[] = [{ name: 'operations', value: operations }, { name: 'map', value: map }, file];
        // the spec's order is operations, map, files; any other comes now and then
        const orders = [
          [0, 1, 2],
          [0, 1, 2],
          [0, 1, 2],
          [0, 1, 2],
          [1, 0, 2],
          [2, 0, 1],
          [0, 2, 1],
          [0, 1],
        ];
        return { route: '/graphql', parts: orders[order].map((i) => parts[i]) };
      });
    return fc
      .tuple(
        fc.oneof(w(2, restForm), w(1, graphqlForm)),
        keyHeaders(a),
        fc.oneof(
          w(8, fc.constant(`multipart/form-data; boundary=${BOUNDARY}`)),
          w(
            1,
            pick(
              `multipart/form-data; boundary="${BOUNDARY}"`,
              `Multipart/Form-Data; BOUNDARY=${BOUNDARY}`,
              'multipart/form-data',
              'multipart/form-data; boundary=other',
              `multipart/mixed; boundary=${BOUNDARY}`,
              `application/json`,
              `multipart/form-data; boundary=${'b'.repeat(80)}`,
            ),
          ),
        ),
        // how the form ends: whole, without its closing boundary, cut at a byte with a matching length, or the client going away
        fc.oneof(
          w(10, fc.constant<Cut>({ kind: 'whole' })),
          w(1, fc.constant<Cut>({ kind: 'unclosed' })),
          w(
            2,
            fc.double({ min: 0, max: 1, noNaN: true }).map((at): Cut => ({ kind: 'cut', at })),
          ),
          w(
            1,
            fc.double({ min: 0, max: 1, noNaN: true }).map((at): Cut => ({ kind: 'gone', at })),
          ),
        ),
        idempotencyHeader,
        fc.option(pick('text/event-stream', 'application/graphql-response+json', 'text/html'), { freq: 6 }),
      )
      .map(([{ route, parts }, key, type, cut, idem, accept]) => {
        let body = multipartBody(BOUNDARY, parts, { close: cut.kind !== 'unclosed' });
        let cutOff = false;
        if (cut.kind === 'cut' || cut.kind === 'gone') {
          body = body.subarray(0, Math.floor(body.length * cut.at));
          cutOff = cut.kind === 'gone';
        }
        const headers: Array<[string, string]> = [...key, ['content-type', type]];
        if (idem) headers.push(idem);
        if (accept !== null) headers.push(['accept', accept]);
        return { label: `POST ${route} (multipart${cut.kind === 'whole' ? '' : `, ${cut.kind}`})`, method: 'POST', target: route, headers, body, cutOff };
      });
  });
}

type Cut = { kind: 'whole' } | { kind: 'unclosed' } | { kind: 'cut'; at: number } | { kind: 'gone'; at: number };

// ---------------------------------------------------------------------------
// GraphQL documents

/** arguments that name a resource of the caller, by field and argument */
const ID_ARGS: Record<string, IdKind> = {
  'deleteUserTheme.id': 'theme',
  'updateUserTheme.id': 'theme',
  'exportProject.id': 'project',
  'updateProject.id': 'project',
  'updatePreset.id': 'preset',
  'redeliverWebhook.id': 'webhook',
  'revokeApiKey.id': 'apiKey',
  'deleteProject.id': 'busyProject',
  'createPresetFromProject.projectId': 'project',
  'project.id': 'project',
  'preset.id': 'preset',
  'userMediaEntry.id': 'media',
  'webhookDelivery.id': 'webhook',
  'publishProject.projectId': 'exportedProject',
  'cancelPublication.id': 'publication',
  'publication.id': 'publication',
  'publications.profileId': 'profile',
  'profileStats.profileId': 'profile',
  'connectAccount.profileId': 'profile',
  'disconnectAccount.profileId': 'spareProfile',
};

/** arguments drawn as the same field of a REST body, by field and argument */
const BODY_ARGS: Record<string, [BodyName, string]> = {
  'connectAccount.returnUrl': ['connectAccount', 'returnUrl'],
};

/** text arguments of the publishing queries, drawn as their REST query parameters are */
const QUERY_ARGS: Record<string, (ctx: InputContext, a: Actor) => fc.Arbitrary<string>> = {
  ...Object.fromEntries(
    Object.entries(LISTING_QUERY)
      .filter(([k]) => !['limit', 'profileId'].includes(k))
      .map(([k, f]) => [`publications.${k}`, f]),
  ),
  ...Object.fromEntries(['profileStats', 'publishingStats'].flatMap((field) => Object.entries(STATS_QUERY).map(([k, f]) => [`${field}.${k}`, f]))),
};

/** which body's fields an input type carries */
const INPUT_BODIES: Record<string, BodyName> = {
  CreateProjectInput: 'createProject',
  UploadProjectInput: 'uploadProject',
  UpdateProjectInput: 'updateProject',
  ExportProjectInput: 'exportProject',
  UpdatePresetInput: 'updatePreset',
  UserThemeInput: 'userTheme',
  CreateMagicClipsInput: 'createMagicClips',
  UploadMagicClipsInput: 'uploadMagicClips',
  PublishInput: 'publish',
};

/**
 * A value for an argument: drawn for its type, with the field names of the REST
 * bodies drawn as those are; `clean` keeps to values that should pass.
 */
function valueFor(ctx: InputContext, a: Actor, type: GraphQLInputType, fieldKey: string, clean: boolean): fc.Arbitrary<unknown> {
  const pass = (x: fc.Arbitrary<unknown>) => (clean ? validOf(x) : x);
  if (ID_ARGS[fieldKey]) return pass(idArb(ctx, a, ID_ARGS[fieldKey]));
  if (QUERY_ARGS[fieldKey]) return pass(QUERY_ARGS[fieldKey](ctx, a));
  if (BODY_ARGS[fieldKey]) {
    const [body, field] = BODY_ARGS[fieldKey];
    return pass((bodyFields(ctx, a)[body].fields as Fields)[field]);
  }
  if (isNonNullType(type)) return valueFor(ctx, a, type.ofType, fieldKey, clean);
  if (isListType(type)) return fc.array(valueFor(ctx, a, type.ofType, fieldKey, clean), { maxLength: clean ? 2 : 3 });
  if (isInputObjectType(type)) {
    const body = INPUT_BODIES[type.name];
    if (body) return (clean ? cleanObjectOf : objectOf)(bodyFields(ctx, a)[body]).map(safeUrls);
    const fields = type.getFields();
    return fc.record(Object.fromEntries(Object.values(fields).map((f) => [f.name, valueFor(ctx, a, f.type, `${type.name}.${f.name}`, clean)])), {
      requiredKeys: [],
    });
  }
  if (type instanceof GraphQLEnumType) return pass(mostly(fc.constantFrom(...type.getValues().map((v) => v.name)), 5));
  const scalar = (type as GraphQLScalarType).name;
  const name = fieldKey.split('.').pop()!;
  if (name === 'url') return pass(mediaUrlArb(ctx, 'media'));
  if (name === 'name') return pass(withValid<unknown>(pick('Fuzz preset', 'Bold'), mostly(fc.string({ minLength: 1, maxLength: 100 }), 3)));
  switch (scalar) {
    case 'Int':
      return pass(withValid<unknown>(fc.integer({ min: 1, max: 50 }), mostly(fc.integer({ min: -1, max: 120 }), 4)));
    case 'Float':
      return pass(withValid<unknown>(fc.integer({ min: 0, max: 50 }), mostly(fc.double({ min: -1, max: 5000, noNaN: true }), 4)));
    case 'Boolean':
      return pass(boolish);
    case 'ID':
      return clean ? idArb(ctx, a, 'project').valid : fc.oneof(idArb(ctx, a, 'project'), idArb(ctx, a, 'media'));
    case 'JSON':
      return clean ? fc.constant(null) : anyJson;
    case 'Upload':
      return pick<unknown>(null, 'file', {}, 0);
    default:
      return pass(withValid<unknown>(pick('fuzz', 'A description'), mostly(fc.string({ maxLength: 40 }), 3)));
  }
}

/** A GraphQL literal of a value (a deep list stays a list; a deep object, written as JSON, becomes a string). */
export function literal(v: unknown): string {
  if (v instanceof RawJson) return /^[[\]]+$|^-?[\d.eE+-]+$/.test(v.text) ? v.text : JSON.stringify(v.text);
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isFinite(v) ? (Object.is(v, -0) ? '0' : String(v)) : '0';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(literal).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${asName(k)}: ${literal(x)}`)
    .join(', ')}}`;
}

const asName = (k: string) => {
  const n = k.replace(/[^_0-9A-Za-z]/g, '_');
  return /^[_A-Za-z]/.test(n) ? n : `_${n}`;
};

/**
 * A value as an argument of `type` is written: a value of an enum bare, at
 * any depth of the input objects and lists it is in (an enum member of an
 * input, such as a photoshare post's format); the rest as `literal` writes it.
 */
function typedLiteral(type: GraphQLInputType, v: unknown): string {
  const t = isNonNullType(type) ? type.ofType : type;
  if (t instanceof GraphQLEnumType) return typeof v === 'string' && t.getValue(v) ? v : literal(v);
  if (isListType(t)) return Array.isArray(v) ? `[${v.map((x) => typedLiteral(t.ofType, x)).join(', ')}]` : typedLiteral(t.ofType, v);
  if (isInputObjectType(t) && v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof RawJson)) {
    const fields = t.getFields();
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${asName(k)}: ${Object.hasOwn(fields, k) ? typedLiteral(fields[k].type, x) : literal(x)}`)
      .join(', ')}}`;
  }
  return literal(v);
}

const typeString = (t: GraphQLInputType): string => String(t);

/** A selection of `type`'s fields, `depth` levels down, with aliases, fragments and __typename now and then. */
function selectionOf(type: GraphQLObjectType, depth: number): fc.Arbitrary<string> {
  const fields = Object.values(type.getFields()) as GraphQLField<unknown, unknown>[];
  const leaves = fields.filter((f) => isLeafType(getNamedType(f.type)) && f.args.every((x) => !isNonNullType(x.type) || x.defaultValue !== undefined));
  const objects = depth > 0 ? fields.filter((f) => isObjectType(getNamedType(f.type)) && f.args.every((x) => !isNonNullType(x.type))) : [];
  const leaf = fc
    .tuple(fc.constantFrom(...(leaves.length ? leaves.map((f) => f.name) : ['__typename'])), fc.option(fc.constantFrom('a', 'b', 'x1', '__alias'), { freq: 4 }))
    .map(([f, alias]) => `${alias ? `${alias}${f}: ` : ''}${f}`);
  const nested = objects.length
    ? fc.constantFrom(...objects).chain((f) => selectionOf(getNamedType(f.type) as GraphQLObjectType, depth - 1).map((s) => `${f.name} ${s}`))
    : leaf;
  return fc
    .tuple(
      fc.uniqueArray(fc.oneof(w(4, leaf), w(1, nested), w(1, fc.constant('__typename'))), { minLength: 1, maxLength: 5 }),
      pick('plain', 'plain', 'inline', 'typed'),
    )
    .map(([sel, how]) => {
      const inner = sel.join(' ');
      if (how === 'inline') return `{ ... { ${inner} } }`;
      if (how === 'typed') return `{ ... on ${type.name} { ${inner} } }`;
      return `{ ${inner} }`;
    });
}

interface RootCall {
  text: string;
  variables: Record<string, unknown>;
  definitions: string[];
}

let varCounter = 0;

function rootCall(ctx: InputContext, a: Actor, field: GraphQLField<unknown, unknown>, clean: boolean): fc.Arbitrary<RootCall> {
  const ret = getNamedType(field.type);
  const selection = isObjectType(ret) ? selectionOf(ret, 2) : fc.constant('');
  const argArbs = field.args.map((arg) =>
    fc
      .tuple(
        valueFor(ctx, a, arg.type, `${field.name}.${arg.name}`, clean).map(safeUrls),
        // how the argument is given: a literal, a variable, a variable of the wrong type, or not at all
        clean
          ? pick('literal', 'variable')
          : fc.oneof(w(5, fc.constant('literal')), w(5, fc.constant('variable')), w(1, fc.constant('wrong-type')), w(1, fc.constant('missing'))),
      )
      .map(([value, how]) => ({ arg, value, how })),
  );
  return fc
    .tuple(
      fc.tuple(...argArbs),
      selection,
      fc.option(fc.constantFrom('a', 'b', 'again', 'x_1'), { freq: 3 }),
      clean ? fc.constant(null) : fc.option(fc.tuple(fc.constantFrom('bogus', 'first'), anyJson), { freq: 12 }),
    )
    .map(([args, sel, alias, extraArg]) => {
      const variables: Record<string, unknown> = {};
      const definitions: string[] = [];
      const written = args
        .filter(({ how }) => how !== 'missing')
        .map(({ arg, value, how }) => {
          if (how === 'literal') return `${arg.name}: ${typedLiteral(arg.type, value)}`;
          const v = `v${varCounter++ % 1000}`;
          variables[v] = value;
          definitions.push(`$${v}: ${how === 'wrong-type' ? (typeString(arg.type).startsWith('String') ? 'Int' : 'String') : typeString(arg.type)}`);
          return `${arg.name}: $${v}`;
        });
      if (extraArg) written.push(`${extraArg[0]}: ${literal(extraArg[1])}`);
      const argText = written.length ? `(${written.join(', ')})` : '';
      return { text: `${alias ? `${alias}: ` : ''}${field.name}${argText} ${sel}`, variables, definitions };
    });
}

export interface GraphQLDoc {
  query: string;
  variables: Record<string, unknown>;
  operationName?: string;
  /** root fields the document runs */
  fields: string[];
}

/**
 * A document: mostly one mutation of the schema, else several, a query,
 * fragments, deep nesting, or a broken text; a clean one (about a third) keeps
 * to documents and values that should run.
 */
export function graphqlDocArb(ctx: InputContext, a: Actor): fc.Arbitrary<GraphQLDoc> {
  const mutations = Object.values(ctx.schema.getMutationType()!.getFields());
  const queries = Object.values(ctx.schema.getQueryType()!.getFields());
  const calls = (op: 'mutation' | 'query', clean: boolean) =>
    fc.constantFrom(...(op === 'mutation' ? mutations : queries)).chain((f) => rootCall(ctx, a, f, clean).map((c) => ({ ...c, field: f.name })));
  return fc
    .tuple(
      fc.oneof(w(8, fc.constant<'mutation' | 'query'>('mutation')), w(2, fc.constant<'mutation' | 'query'>('query'))),
      fc.boolean(),
      fc.integer({ min: 1, max: 3 }),
      // how the root fields are written: as they are, inside an inline fragment, or a named fragment spread
      pick('plain', 'plain', 'plain', 'inline', 'fragment'),
      fc.option(fc.integer({ min: 5, max: 2500 }), { freq: 12 }),
      fc.option(pick('cut', 'unknown-field', 'unused-variable', 'duplicate-op', 'anonymous-and-named', 'subscription'), { freq: 10 }),
      fc.nat(),
    )
    .chain(([op, clean, n, how, deep, broken, seed]) => {
      const count = clean ? Math.min(n, 2) : n;
      return fc.array(calls(op, clean), { minLength: count, maxLength: count }).map((drawn) => {
        // a clean document gives each root field a name of its own (two fields under one alias conflict)
        const cs = clean ? drawn.map((c, i) => ({ ...c, text: `r${i}: ${c.text.replace(/^\w+: /, '')}` })) : drawn;
        const variables = Object.assign({}, ...cs.map((c) => c.variables));
        const defs = cs.flatMap((c) => c.definitions);
        let body = cs.map((c) => c.text).join('\n  ');
        const rootType = op === 'mutation' ? 'Mutation' : 'Query';
        let fragments = '';
        if (how === 'inline') body = `... on ${rootType} { ${body} }`;
        if (how === 'fragment') {
          fragments = `\nfragment Roots on ${rootType} { ${body} }`;
          body = '...Roots';
        }
        const breaking = clean ? null : broken;
        if (deep && !clean) body = `${'... { '.repeat(deep)}${body}${' }'.repeat(deep)}`;
        if (breaking === 'unknown-field') body += ' nothingHere';
        if (breaking === 'unused-variable') defs.push('$unused: String');
        let query = `${op} Fuzz${defs.length ? `(${defs.join(', ')})` : ''} {\n  ${body}\n}${fragments}`;
        let operationName: string | undefined = 'Fuzz';
        if (breaking === 'duplicate-op') query += `\n${op} Fuzz { __typename }`;
        if (breaking === 'anonymous-and-named') {
          query = `{ __typename }\n${query}`;
          operationName = seed % 2 ? 'Fuzz' : undefined;
        }
        if (breaking === 'subscription') query = query.replace(/^(mutation|query)/, 'subscription');
        if (breaking === 'cut') query = query.slice(0, seed % Math.max(1, query.length));
        return { query, variables: safeUrls(variables) as Record<string, unknown>, operationName, fields: cs.map((c) => c.field) };
      });
    });
}

/** A POST /graphql with a document of graphqlDocArb, its variables and operation name, as JSON. */
export function graphqlCase(ctx: InputContext): fc.Arbitrary<HttpCase> {
  return fc.integer({ min: 0, max: ctx.actors.length - 1 }).chain((ai) => {
    const a = ctx.actors[ai];
    return fc
      .tuple(
        graphqlDocArb(ctx, a),
        keyHeaders(a),
        fc.option(pick('application/json', 'application/graphql-response+json', '*/*', 'application/json, text/plain'), { freq: 2 }),
        // the envelope: as clients send it, or with its parts broken
        fc.oneof(
          w(12, fc.constant('ok')),
          w(
            1,
            pick(
              'variables-string',
              'variables-array',
              'no-query',
              'query-number',
              'operation-name-wrong',
              'extensions',
              'batch',
              'deep-variables',
              'huge-query',
            ),
          ),
        ),
        idempotencyHeader,
      )
      .map(([doc, key, accept, envelope, idem]) => {
        const env: Record<string, unknown> = { query: doc.query, variables: doc.variables };
        if (doc.operationName) env.operationName = doc.operationName;
        switch (envelope) {
          case 'variables-string':
            env.variables = toJson(doc.variables);
            break;
          case 'variables-array':
            env.variables = [doc.variables];
            break;
          case 'no-query':
            delete env.query;
            break;
          case 'query-number':
            env.query = 42;
            break;
          case 'operation-name-wrong':
            env.operationName = 'Nope';
            break;
          case 'extensions':
            env.extensions = { persistedQuery: { version: 1, sha256Hash: 'abc' } };
            break;
          case 'deep-variables':
            env.variables = { ...doc.variables, deep: new RawJson('{"a":'.repeat(3000) + '1' + '}'.repeat(3000)) };
            break;
          case 'huge-query':
            env.query = `${doc.query}\n#${'x'.repeat(200_000)}`;
            break;
        }
        const text = envelope === 'batch' ? toJson([env, env]) : toJson(env);
        const headers: Array<[string, string]> = [...key, ['content-type', 'application/json']];
        if (accept !== null) headers.push(['accept', accept]);
        if (idem) headers.push(idem);
        return {
          label: `POST /graphql ${doc.fields.join(',')}`,
          method: 'POST',
          target: '/graphql',
          headers,
          body: Buffer.from(text),
          roots: doc.fields.length,
        };
      });
  });
}

// ---------------------------------------------------------------------------
// HTTP framing over a raw socket

const CRLF = '\r\n';

/** requests whose framing is broken: lengths that lie, bad chunks, oversized or garbage heads, cut-off bodies */
/** A request that would be fine, to send broken or slowly: its target, method, Content-Type and body. */
function sendableRequest(ctx: InputContext, a: Actor): fc.Arbitrary<{ target: string; method: string; type: string; body: Buffer; roots?: number }> {
  const fields = bodyFields(ctx, a);
  return fc.oneof(
    w(
      3,
      bodyArb(fields.createProject).map((b) => ({ target: '/v1/projects', method: 'POST', type: 'application/json', body: bodyBytes(b) })),
    ),
    w(
      2,
      bodyArb(fields.createUserMedia).map((b) => ({ target: '/v1/user-media', method: 'POST', type: 'application/json', body: bodyBytes(b) })),
    ),
    w(
      1,
      bodyArb(fields.updatePreset).map((b) => ({ target: `/v1/presets/${a.presets[0]}`, method: 'PUT', type: 'application/json', body: bodyBytes(b) })),
    ),
    w(
      2,
      graphqlCase({ ...ctx, actors: [a] }).map((c) => ({ target: '/graphql', method: 'POST', type: 'application/json', body: c.body!, roots: c.roots })),
    ),
    w(
      2,
      multipartCase({ ...ctx, actors: [a] })
        .filter((c) => !c.cutOff)
        .map((c) => ({ target: c.target, method: 'POST', type: c.headers.find(([n]) => n === 'content-type')![1], body: c.body! })),
    ),
  );
}

/** A request sent slowly (RawCase.pace): its head, or its body, a few bytes at a time, at a pace that may or may not beat the server's limits. */
export function slowCase(ctx: InputContext): fc.Arbitrary<RawCase> {
  return fc.integer({ min: 0, max: ctx.actors.length - 1 }).chain((ai) => {
    const a = ctx.actors[ai];
    return (
      fc
        // bodies of at most 256 KiB: a larger one moving above the floors takes its time, and teaches nothing more
        .tuple(
          sendableRequest(ctx, a).filter((r) => r.body.length <= 256 * 1024),
          fc.constantFrom('head', 'body'),
          fc.integer({ min: 1, max: 64 * 1024 }),
          fc.integer({ min: 10, max: 250 }),
        )
        .map(([r, slow, piece, everyMs]): RawCase => {
          const head = `${r.method} ${r.target} HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}x-api-key: ${a.key}${CRLF}Content-Type: ${r.type}${CRLF}Content-Length: ${r.body.length}${CRLF}Connection: close${CRLF}${CRLF}`;
          return {
            label: `${r.method} ${r.target} (slow ${slow}, ${piece} bytes every ${everyMs} ms)`,
            bytes: Buffer.concat([Buffer.from(head, 'latin1'), r.body]),
            targets: [r.target],
            complete: true,
            halfClose: false,
            waitMs: 10_000,
            roots: r.roots,
            pace: slow === 'head' ? { headPiece: Math.min(piece, 16), piece: 64 * 1024, everyMs } : { piece, everyMs },
          };
        })
    );
  });
}

export function rawCase(ctx: InputContext): fc.Arbitrary<RawCase> {
  return fc.integer({ min: 0, max: ctx.actors.length - 1 }).chain((ai) => {
    const a = ctx.actors[ai];
    // a request to break: its target and a body that would be fine
    const base = sendableRequest(ctx, a);
    const head = (method: string, target: string, lines: string[]) =>
      `${method} ${target} HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}x-api-key: ${a.key}${CRLF}${lines.map((l) => l + CRLF).join('')}${CRLF}`;
    const framed = fc
      .tuple(
        base,
        fc.constantFrom(
          'length-short',
          'length-short-close',
          'length-long-wait',
          'length-long-end',
          'length-invalid',
          'length-double',
          'length-and-chunked',
          'chunked-bad-size',
          'chunked-short',
          'chunked-long',
          'chunked-no-end',
          'chunked-ext',
          'chunked-good',
          'chunked-split',
          'body-cut-end',
          'no-length',
          'pipelined',
        ),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.oneof(
          fc.constant(Buffer.from('GARBAGE / HTTP/1.1\r\n\r\n')),
          fc.uint8Array({ minLength: 1, maxLength: 200 }).map((b) => Buffer.from(b)),
          fc.constant(Buffer.from('{"more":"data"}')),
        ),
      )
      .map(([r, how, at, trailing]): RawCase => {
        const body = r.body;
        const cut = Math.floor(body.length * at);
        const type = `Content-Type: ${r.type}`;
        const label = `${r.method} ${r.target} (${how})`;
        const one = (h: string, b: Buffer | string, opts: Partial<RawCase> = {}): RawCase => ({
          label,
          bytes: Buffer.concat([Buffer.from(h, 'latin1'), Buffer.isBuffer(b) ? b : Buffer.from(b, 'latin1')]),
          targets: [r.target],
          complete: true,
          halfClose: false,
          waitMs: 10_000,
          roots: 'roots' in r ? r.roots : undefined,
          ...opts,
        });
        const chunk = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}${CRLF}`), b, Buffer.from(CRLF)]);
        switch (how) {
          case 'length-short':
            // the length says less than is sent: the rest reads as a next request
            return one(head(r.method, r.target, [type, `Content-Length: ${cut}`]), Buffer.concat([body, trailing]));
          case 'length-short-close':
            return one(head(r.method, r.target, [type, `Content-Length: ${cut}`, 'Connection: close']), Buffer.concat([body, trailing]));
          case 'length-long-wait':
            // the length says more than is sent and the client waits, then goes away
            return one(head(r.method, r.target, [type, `Content-Length: ${body.length + 1 + Math.floor(at * 1e6)}`]), body, { complete: false, waitMs: 300 });
          case 'length-long-end':
            // the length says more than is sent and the client closes its side
            return one(head(r.method, r.target, [type, `Content-Length: ${body.length + 1 + Math.floor(at * 1e6)}`, 'Connection: close']), body, {
              complete: false,
              halfClose: true,
              waitMs: 2_000,
            });
          case 'length-invalid':
            return one(
              head(r.method, r.target, [
                type,
                `Content-Length: ${['abc', '-1', '1.5', ' ', '0x10', '99999999999999999999', `${body.length}, ${body.length}`][Math.floor(at * 7)]}`,
                'Connection: close',
              ]),
              body,
            );
          case 'length-double':
            return one(head(r.method, r.target, [type, `Content-Length: ${body.length}`, `Content-Length: ${cut}`, 'Connection: close']), body);
          case 'length-and-chunked':
            return one(
              head(r.method, r.target, [type, `Content-Length: ${body.length}`, 'Transfer-Encoding: chunked', 'Connection: close']),
              Buffer.concat([chunk(body), Buffer.from(`0${CRLF}${CRLF}`)]),
            );
          case 'chunked-bad-size':
            return one(
              head(r.method, r.target, [type, 'Transfer-Encoding: chunked', 'Connection: close']),
              Buffer.concat([
                Buffer.from(`${['zz', '-1', '', 'fffffffffffffffff', '1 2'][Math.floor(at * 5)]}${CRLF}`),
                body,
                Buffer.from(`${CRLF}0${CRLF}${CRLF}`),
              ]),
            );
          case 'chunked-short':
            return one(
              head(r.method, r.target, [type, 'Transfer-Encoding: chunked', 'Connection: close']),
              Buffer.concat([Buffer.from(`${Math.max(0, body.length - 1 - cut).toString(16)}${CRLF}`), body, Buffer.from(`${CRLF}0${CRLF}${CRLF}`)]),
            );
          case 'chunked-long':
            return one(
              head(r.method, r.target, [type, 'Transfer-Encoding: chunked', 'Connection: close']),
              Buffer.concat([Buffer.from(`${(body.length + 1 + cut).toString(16)}${CRLF}`), body, Buffer.from(`${CRLF}0${CRLF}${CRLF}`)]),
              {
                complete: false,
                halfClose: true,
                waitMs: 2_000,
              },
            );
          case 'chunked-no-end':
            return one(head(r.method, r.target, [type, 'Transfer-Encoding: chunked', 'Connection: close']), chunk(body), {
              complete: false,
              halfClose: at > 0.5,
              waitMs: at > 0.5 ? 2_000 : 300,
            });
          case 'chunked-ext':
            return one(
              head(r.method, r.target, [type, 'Transfer-Encoding: chunked', 'Connection: close']),
              Buffer.concat([
                Buffer.from(`${body.length.toString(16)};${['a=b', 'a="\u0000"', 'x'.repeat(5000), ';;;'][Math.floor(at * 4)]}${CRLF}`, 'latin1'),
                body,
                Buffer.from(`${CRLF}0${CRLF}${CRLF}`),
              ]),
            );
          case 'chunked-good':
            return one(
              head(r.method, r.target, [type, 'Transfer-Encoding: chunked', 'Connection: close']),
              Buffer.concat([chunk(body.subarray(0, cut)), chunk(body.subarray(cut)), Buffer.from(`0${CRLF}X-Trailer: 1${CRLF}${CRLF}`)]),
            );
          case 'chunked-split':
            return one(
              head(r.method, r.target, [type, 'Transfer-Encoding: gzip, chunked', 'Connection: close']),
              Buffer.concat([chunk(body), Buffer.from(`0${CRLF}${CRLF}`)]),
            );
          case 'body-cut-end':
            // the body cut off mid-way and the connection closed
            // (a client that closes its side after a whole request may be taken as gone: Node drops its answer, so only a cut one does)
            return cut < body.length
              ? one(head(r.method, r.target, [type, `Content-Length: ${body.length}`, 'Connection: close']), body.subarray(0, cut), {
                  complete: false,
                  halfClose: true,
                  waitMs: 2_000,
                })
              : one(head(r.method, r.target, [type, `Content-Length: ${body.length}`, 'Connection: close']), body);
          case 'no-length':
            return one(head(r.method, r.target, [type, 'Connection: close']), body);
          default: {
            // a whole request, then a second one on the same connection
            const first = one(head(r.method, r.target, [type, `Content-Length: ${body.length}`]), body);
            const second = `GET /v1/languages HTTP/1.1${CRLF}Host: x${CRLF}x-api-key: ${a.key}${CRLF}Connection: close${CRLF}${CRLF}`;
            return { ...first, bytes: Buffer.concat([first.bytes, Buffer.from(second)]), targets: [r.target, '/v1/languages'] };
          }
        }
      });
    const garbageHead = fc
      .oneof(
        pick(
          'GET\r\n\r\n',
          'HELLO WORLD\r\n\r\n',
          'GET / HTTP/9.9\r\nHost: x\r\n\r\n',
          'GET /v1/languages HTTP/1.0\r\n\r\n',
          'GET /v1/languages HTTP/1.1\r\n\r\n',
          'get /v1/languages HTTP/1.1\r\nHost: x\r\n\r\n',
          'GET http://127.0.0.1/v1/languages HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
          'GET  /v1/languages  HTTP/1.1\r\nHost: x\r\n\r\n',
          'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
          'CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: x\r\n\r\n',
          'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
          'GET /v1/languages HTTP/1.1\nHost: x\n\n',
          'GET /v1/languages HTTP/1.1\r\nHost: x\r\n folded: value\r\nConnection: close\r\n\r\n',
          'GET /v1/languages HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\nConnection: close\r\n\r\n',
          'GET /v1/languages HTTP/1.1\r\nHost: x\r\nx-api-key: a\u0000b\r\nConnection: close\r\n\r\n',
          'GET /v1/languages HTTP/1.1\r\nHost: x\r\n: empty\r\nConnection: close\r\n\r\n',
          'POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nConnection: close\r\n\r\n{"q":',
          'GET /graphql?query={__typename HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
          'GET /v1/languages HTTP/1.1\r\nHost: x\r\nHost: y\r\nConnection: close\r\n\r\n',
          '\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003',
          '\r\n\r\nGET /v1/languages HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
        ),
        fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
      )
      .map((text): RawCase => {
        const m = /^[A-Za-z]+ (\S+) HTTP\/1\.[01]\r?\n/.exec(text);
        // a whole head is answered; a partial one is ended by the client closing its side
        const complete = /\r?\n\r?\n/.test(text);
        return { label: `garbage head`, bytes: Buffer.from(text, 'latin1'), targets: m ? [m[1]] : [], complete, halfClose: !complete, waitMs: 2_000 };
      });
    const bigHead = fc
      .tuple(pick('one-header', 'many-headers', 'long-target', 'graphql-target'), fc.integer({ min: 8_000, max: 40_000 }))
      .map(([how, n]): RawCase => {
        const target = how === 'long-target' ? `/v1/projects/${'a'.repeat(n)}` : how === 'graphql-target' ? `/graphql?query=${'a'.repeat(n)}` : '/v1/languages';
        const lines =
          how === 'one-header'
            ? [`x-big: ${'b'.repeat(n)}`]
            : how === 'many-headers'
              ? Array.from({ length: Math.floor(n / 20) }, (_, i) => `x-h${i}: ${'c'.repeat(12)}`)
              : [];
        return {
          label: `GET (oversized head: ${how})`,
          bytes: Buffer.from(head('GET', target, [...lines, 'Connection: close']), 'latin1'),
          targets: [target],
          complete: true,
          halfClose: false,
          waitMs: 10_000,
        };
      });
    return fc.oneof(w(6, framed), w(2, garbageHead), w(1, bigHead));
  });
}

// ---------------------------------------------------------------------------
// the WebSocket door: graphql-ws messages, well-formed or not, on one or several sockets

/** One thing a client sends on a socket. */
export type WsStep =
  | { kind: 'text'; text: string }
  | { kind: 'binary'; bytes: Buffer }
  /** a text frame whose bytes are not UTF-8 */
  | { kind: 'badUtf8' }
  /** a message this many bytes long */
  | { kind: 'oversized'; bytes: number };

export interface WsCase {
  label: string;
  /** sockets opened at once, each sent `steps` */
  sockets: number;
  steps: WsStep[];
}

const wsMessage = (m: Record<string, unknown>): WsStep => ({ kind: 'text', text: JSON.stringify(m) });

/** What a graphql-ws client (or an attacker) sends over /graphql; nothing in it may change state (queries and subscriptions only). */
export function wsCase(ctx: InputContext, limits: { maxPayloadBytes: number; maxSocketsPerKey: number }): fc.Arbitrary<WsCase> {
  return fc.integer({ min: 0, max: ctx.actors.length - 1 }).chain((ai) => {
    const a = ctx.actors[ai];
    const payload = fc.oneof(
      w(4, pick<unknown>({ 'x-api-key': a.key }, { apiKey: a.key }, { Authorization: `Bearer ${a.key}` })),
      w(
        3,
        pick<unknown>(
          undefined,
          {},
          { 'x-api-key': 'sk-unknown' },
          { 'x-api-key': ctx.foreign.apiKey },
          { 'x-api-key': 42 },
          { apiKey: [a.key] },
          null,
          'sk',
          [a.key],
          { Authorization: a.key },
        ),
      ),
      w(1, fc.jsonValue({ maxDepth: 3 })),
    );
    const id = fc.oneof(pick('1', '2', ''), fc.string({ maxLength: 8 }));
    const query = fc.oneof(
      pick(
        '{ languages { code } }',
        '{ projects(first: 2) { edges { node { id title } } } }',
        `subscription { projectUpdates(projectId: "${a.projects[0]}", follow: true) { status } }`,
        `subscription { projectUpdates(projectId: "${ctx.foreign.project}") { status } }`,
        `subscription { jobEvents(jobId: "not-a-job") { type } }`,
        `subscription { publicationUpdates(publicationId: "${a.publications[0]}") { status } }`,
        'subscription { nope }',
        '{ languages { code } } { languages { code } }',
        `{ ${'a { '.repeat(40)}${'} '.repeat(40)}}`,
      ),
      fc.string({ maxLength: 200 }),
    );
    const step: fc.Arbitrary<WsStep> = fc.oneof(
      w(
        4,
        payload.map((p) => wsMessage(p === undefined ? { type: 'connection_init' } : { type: 'connection_init', payload: p })),
      ),
      w(
        4,
        fc
          .tuple(id, query, fc.option(fc.jsonValue({ maxDepth: 2 })))
          .map(([i, q, v]) => wsMessage({ id: i, type: 'subscribe', payload: { query: q, ...(v === null ? {} : { variables: v }) } })),
      ),
      w(
        2,
        id.map((i) => wsMessage({ id: i, type: 'complete' })),
      ),
      w(
        1,
        pick(
          wsMessage({ type: 'ping' }),
          wsMessage({ type: 'pong', payload: { a: 1 } }),
          wsMessage({ type: 'next', id: '1', payload: {} }),
          wsMessage({ type: 'connection_ack' }),
          wsMessage({ type: 'nope' }),
        ),
      ),
      w(
        2,
        fc.string({ maxLength: 300 }).map((text): WsStep => ({ kind: 'text', text })),
      ),
      w(
        1,
        fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b): WsStep => ({ kind: 'binary', bytes: Buffer.from(b) })),
      ),
      w(1, fc.constant<WsStep>({ kind: 'badUtf8' })),
      w(
        1,
        fc.integer({ min: limits.maxPayloadBytes + 1, max: limits.maxPayloadBytes * 2 }).map((bytes): WsStep => ({ kind: 'oversized', bytes })),
      ),
    );
    // most sockets begin as a client would, with a valid key, so that what follows reaches operations
    const first = fc.oneof(w(3, pick(wsMessage({ type: 'connection_init', payload: { 'x-api-key': a.key } }))), w(1, step));
    const single = fc
      .tuple(first, fc.array(step, { maxLength: 5 }))
      .map(([head, rest]) => ({ label: `ws (${rest.length + 1} messages)`, sockets: 1, steps: [head, ...rest] }));
    // more sockets of one key than it may hold
    const many = fc.integer({ min: limits.maxSocketsPerKey + 1, max: limits.maxSocketsPerKey + 3 }).map((n) => ({
      label: `ws (${n} sockets of one key)`,
      sockets: n,
      steps: [
        wsMessage({ type: 'connection_init', payload: { 'x-api-key': a.key } }),
        wsMessage({ id: '1', type: 'subscribe', payload: { query: '{ languages { code } }' } }),
      ],
    }));
    return fc.oneof(w(6, single), w(1, many));
  });
}
