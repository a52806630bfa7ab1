// A property-based fuzz of the HTTP service: every /v1 route, the file route and every GraphQL
// mutation, with bodies, query strings, path ids, headers, multipart forms, GraphQL documents and
// broken HTTP framing drawn by fast-check, sent to the API server running as its own process.
// After each request: an answer to every request sent whole, no 5xx, every error in the spec's shape
// (GraphQL's format on /graphql) with a code of its list, success bodies in JSON (or the file's
// bytes, or captions), the process alive and no error in its log, and a refused request (4xx, or
// none sent whole) leaves the database and DATA_DIR as they were (idempotency records and
// rate-limit counters aside), while a REST publishing request that succeeded changed exactly what
// it should (a publish: its publication, posts, debit and jobs; a cancel: its publication, posts
// and refund; a connect: its attempt; a disconnect: its account's row; a read: nothing). After
// each phase: /healthz answers, no temporary file stays under DATA_DIR and the process holds none
// of its files open.
//
// Seeded: FUZZ_SEED=<n> draws otherwise (a failure names the seed to replay it with);
// FUZZ_ONLY=<phase> runs one phase (on a server the earlier phases did not touch, so a failure
// that depends on their state may need the whole file); FUZZ_TRACE=1 prints every request.
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../rest/routes.js';
import { ERROR_STATUS } from '../../src/errors.js';
import { JOBS_TABLE } from '../../workers/table.js';
import {
  REST_ROUTES,
  graphqlCase,
  headerCase,
  multipartCase,
  queryPathCase,
  rawCase,
  restJsonCase,
  slowCase,
  wsCase,
  type HttpCase,
  type InputContext,
  type RawCase,
  type WsCase,
  type WsStep,
} from '../support/fuzz-inputs.js';
import { serverUrl } from '../support/db.js';
import { CONFIGURED_PLATFORMS, FUZZ_LIMITS, snapshotDiff, startFuzzServer, type FuzzServer, type Snapshot } from '../support/fuzz-server.js';
import { ROOT } from '../support/process.js';
import { exchange, pacedExchange, type Exchange } from '../support/raw.js';
import WebSocket from 'ws';

const BASE_SEED = process.env.FUZZ_SEED ? Number.parseInt(process.env.FUZZ_SEED, 10) : 20_261_201;
if (!Number.isSafeInteger(BASE_SEED)) throw new Error(`FUZZ_SEED must be an integer, got ${process.env.FUZZ_SEED}`);
const ONLY = process.env.FUZZ_ONLY;
/** FUZZ_TRACE=1 prints each request's label, answers and time, and keeps its bytes under <tmp>/fuzz-trace */
const TRACE = process.env.FUZZ_TRACE === '1';

/** runs per phase, and the time after which a phase sends nothing more (the whole file stays well under 2 minutes) */
const PHASES = {
  'rest-json': { runs: 900, budgetMs: 20_000 },
  'query-path': { runs: 700, budgetMs: 10_000 },
  headers: { runs: 550, budgetMs: 10_000 },
  multipart: { runs: 350, budgetMs: 20_000 },
  graphql: { runs: 650, budgetMs: 18_000 },
  framing: { runs: 220, budgetMs: 10_000 },
  'slow-body': { runs: 24, budgetMs: 25_000 },
  websocket: { runs: 200, budgetMs: 12_000 },
} as const;
type PhaseName = keyof typeof PHASES;

const CODES = new Set(Object.keys(ERROR_STATUS));
const ERROR_KEYS = new Set(['error', 'message', 'details', 'retryAfter']);
/** how long a refused request's leftovers may take to go (an upload's file is removed as its stream ends) */
const SETTLE_MS = 2_000;

let server: FuzzServer;
let ctx: InputContext;
/** every request label each phase sent, to show every route and mutation was reached */
const reached = new Set<string>();

const seedOf = (phase: string) => (BASE_SEED + [...phase].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 7)) | 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------
// what an answer must be

type Door = 'rest' | 'graphql' | 'files' | 'console';

const doorOf = (target: string): Door => {
  const p = target.split('?')[0];
  if (p === '/graphql') return 'graphql';
  if (p.startsWith('/files/')) return 'files';
  if (p === '/' || p.startsWith('/console/')) return 'console';
  return 'rest';
};

type Answer = Exchange['answers'][number];

function parseJson(body: Buffer): { ok: true; value: any } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

/** the JSON results of a GraphQL answer: one, the events of a stream, or the parts of multipart/mixed */
function graphqlPayloads(a: Answer): unknown[] | string {
  const type = a.headers['content-type'] ?? '';
  const text = a.body.toString('utf8');
  if (/^application\/(graphql-response\+)?json/i.test(type)) {
    const j = parseJson(a.body);
    return j.ok ? [j.value] : `not JSON: ${text.slice(0, 200)}`;
  }
  if (/^text\/event-stream/i.test(type)) {
    const out: unknown[] = [];
    for (const event of text.split(/\n\n/)) {
      const lines = event.split('\n');
      if (lines.some((l) => l === 'event: complete')) continue;
      const data = lines
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('\n');
      if (!data) continue;
      try {
        out.push(JSON.parse(data));
      } catch {
        return `event not JSON: ${data.slice(0, 200)}`;
      }
    }
    return out;
  }
  if (/^multipart\/mixed/i.test(type)) {
    const out: unknown[] = [];
    for (const part of text.split(/\r\n---/)) {
      const i = part.indexOf('\r\n\r\n');
      if (i < 0) continue;
      const j = part.slice(i + 4).trim();
      if (!j) continue;
      try {
        out.push(JSON.parse(j));
      } catch {
        return `part not JSON: ${j.slice(0, 200)}`;
      }
    }
    return out;
  }
  return `content-type ${type || '(none)'} is not one of GraphQL's: ${text.slice(0, 200)}`;
}

/** The problems of one answer, none when it is as the spec says. */
function problemsOf(a: Answer, method: string, target: string): string[] {
  const p: string[] = [];
  const door = doorOf(target);
  const type = a.headers['content-type'] ?? '';
  if (a.status >= 500) p.push(`status ${a.status}`);
  if (a.status < 100) p.push('not an HTTP answer');
  const bodiless = method === 'HEAD' || a.status === 204 || a.status === 304;

  if (door === 'graphql') {
    if (bodiless && !a.body.length) return p;
    const payloads = graphqlPayloads(a);
    if (typeof payloads === 'string') return [...p, payloads];
    if (a.status >= 400 && !payloads.length) p.push('an error answer without a result');
    for (const r of payloads as any[]) {
      if (!r || typeof r !== 'object' || Array.isArray(r)) {
        p.push(`a result that is not an object: ${JSON.stringify(r).slice(0, 200)}`);
        continue;
      }
      if (a.status >= 400 && !(Array.isArray(r.errors) && r.errors.length)) p.push('an error answer without errors');
      if (!('data' in r) && !('errors' in r) && !('incremental' in r) && !('hasNext' in r)) p.push('a result with neither data nor errors');
      for (const e of Array.isArray(r.errors) ? r.errors : r.errors === undefined ? [] : [r.errors]) {
        if (typeof e?.message !== 'string') p.push('an error without a message');
        const code = e?.extensions?.code;
        if (!CODES.has(code)) p.push(`error code ${JSON.stringify(code)} is not one of the spec's`);
        if (code === 'INTERNAL_SERVER_ERROR') p.push('an internal error inside a GraphQL result');
      }
    }
    return p;
  }

  if (a.status >= 400) {
    if (!/^application\/json/i.test(type)) p.push(`error content-type ${type || '(none)'}`);
    // the answer to a HEAD has the error's headers only
    if (method === 'HEAD') return p;
    const j = parseJson(a.body);
    if (!j.ok || !j.value || typeof j.value !== 'object' || Array.isArray(j.value))
      return [...p, `error body is not a JSON object: ${a.body.toString('utf8').slice(0, 200)}`];
    const b = j.value;
    const extra = Object.keys(b).filter((k) => !ERROR_KEYS.has(k));
    if (extra.length) p.push(`error body has ${extra.join(', ')}`);
    if (!CODES.has(b.error)) p.push(`error ${JSON.stringify(b.error)} is not one of the spec's`);
    if (typeof b.message !== 'string' || !b.message) p.push('error without a message');
    const rangeRefused = door === 'files' && a.status === 416 && b.error === 'BAD_REQUEST';
    if (CODES.has(b.error) && ERROR_STATUS[b.error as keyof typeof ERROR_STATUS] !== a.status && !rangeRefused)
      p.push(`status ${a.status} with error ${b.error}`);
    if (a.status === 429 && typeof b.retryAfter !== 'number') p.push('429 without retryAfter');
    if (b.details !== undefined) {
      const list = Array.isArray(b.details) ? b.details : null;
      if (b.error === 'VALIDATION_ERROR' && !list) p.push('VALIDATION_ERROR details are not a list');
      if (!list && (typeof b.details !== 'object' || b.details === null)) p.push('details are neither a list nor an object');
      for (const d of list ?? [])
        if (typeof d?.field !== 'string' || typeof d?.message !== 'string') p.push(`a detail without field and message: ${JSON.stringify(d).slice(0, 200)}`);
    }
    return p;
  }
  if (a.status >= 300 && a.status !== 304) p.push(`status ${a.status}`);
  if (bodiless || door === 'files') return p;
  // the web console's page, scripts and styles (its refusals are the service's JSON errors, above)
  if (door === 'console') {
    if (!/^text\/(html|javascript|css)/.test(type)) p.push(`console file served as ${type}`);
    return p;
  }
  if (/^\/v1\/projects\/[^/]+\/captions/.test(target.split('?')[0]) && a.status === 200) {
    if (!/^(text\/vtt|application\/x-subrip)/.test(type)) p.push(`captions served as ${type}`);
    return p;
  }
  if (!/^application\/json/i.test(type)) p.push(`content-type ${type || '(none)'}`);
  const j = parseJson(a.body);
  if (!j.ok || typeof j.value !== 'object' || j.value === null) p.push(`body is not JSON: ${a.body.toString('utf8').slice(0, 200)}`);
  return p;
}

/**
 * An answer that may have done something: a success, but not a GraphQL result
 * that refused the request or its only root field. (Of several mutations, one
 * may have run before another failed and nulled the whole data: such a result
 * is not a refusal.)
 */
function accepted(a: Answer, target: string, roots = 1): boolean {
  if (a.status >= 400) return false;
  if (doorOf(target) !== 'graphql') return true;
  const payloads = graphqlPayloads(a);
  if (typeof payloads === 'string' || !payloads.length) return true;
  return (payloads as any[]).some((r) => {
    if (!Array.isArray(r?.errors) || !r.errors.length) return true;
    const data = r.data;
    if (data && typeof data === 'object' && Object.values(data).some((v) => v !== null)) return true;
    return roots > 1 && r.errors.some((e: { path?: unknown[] }) => Array.isArray(e?.path) && e.path.length > 0);
  });
}

// ---------------------------------------------------------------------------
// what an accepted request of publishing may change

/** Tables a refused request must leave as they were, among every table the snapshot covers: publishing's, accounts and their connection attempts, the ledger and the jobs. */
const WATCHED_TABLES = ['Publication', 'Post', 'SandboxUpload', 'SocialAccount', 'OAuthAttempt', 'CreditLedger', 'User', 'WebhookDelivery', JOBS_TABLE];

/** table -> the change of its row count; a table named may change its rows, one not named must not change at all */
type Changes = Map<string, number>;

/**
 * What a REST publishing request that succeeded changed, exactly (null for
 * the other routes, and GraphQL's, which re-read the state as it is): a
 * publish writes its publication, a post per platform, a debit (the user's
 * credits) and its jobs (a delivery per post, or one firing of a scheduled
 * publication); a cancel deletes a scheduled publication with its posts and
 * gives its credits back; a connect writes its attempt and no account (the
 * platform's redirect connects it); a disconnect changes its account's row
 * (its status, its tokens forgotten) and deletes none; the reads change
 * nothing, and neither does a replayed answer.
 */
function acceptedChanges(label: string, a: Answer): Changes | null {
  const route = label.replace(/ \(.*\)$/, '');
  const reads = [
    'GET /v1/projects/published',
    'GET /v1/projects/published/:id',
    'GET /v1/publishing/stats',
    'GET /v1/publishing/stats/profiles/:profileId',
    'GET /v1/platforms',
    'GET /v1/profiles',
  ];
  if (reads.includes(route)) return new Map();
  const accounts: Record<string, Changes> = {
    'POST /v1/profiles/:profileId/accounts/:platform/connect': new Map([['OAuthAttempt', 1]]),
    'DELETE /v1/profiles/:profileId/accounts/:platform': new Map([['SocialAccount', 0]]),
  };
  if (route !== 'POST /v1/projects/:id/publish' && route !== 'DELETE /v1/projects/published/:id' && !accounts[route]) return null;
  if (a.headers['idempotent-replayed']) return new Map();
  if (accounts[route]) return accounts[route];
  const body = parseJson(a.body);
  if (!body.ok) return null; // a problem problemsOf names
  if (route === 'POST /v1/projects/:id/publish') {
    const posts = Array.isArray(body.value?.platforms) ? body.value.platforms.length : NaN;
    return new Map([
      ['Publication', 1],
      ['Post', posts],
      ['CreditLedger', 1],
      ['User', 0],
      [JOBS_TABLE, body.value?.scheduled ? 1 : posts],
    ]);
  }
  // a post costs one credit, all of which come back
  const posts = typeof body.value?.refundedCredits === 'number' ? body.value.refundedCredits : NaN;
  return new Map([
    ['Publication', -1],
    ['Post', -posts],
    ['CreditLedger', 1],
    ['User', 0],
  ]);
}

const rowCount = (v: string | undefined) => (v === undefined ? 0 : Number(v.split(':')[0]));

/** How `after` differs from `before` beyond `expected`, one line each. */
function unexpectedChanges(before: Snapshot, after: Snapshot, expected: Changes): string[] {
  const out: string[] = [];
  for (const t of new Set([...before.tables.keys(), ...after.tables.keys()])) {
    const [b, x] = [before.tables.get(t), after.tables.get(t)];
    const delta = expected.get(t);
    if (delta === undefined) {
      if (b !== x) out.push(`table ${t}: ${b} -> ${x}`);
    } else if (rowCount(x) - rowCount(b) !== delta) out.push(`table ${t}: ${rowCount(b)} -> ${rowCount(x)} rows, not ${delta >= 0 ? '+' : ''}${delta}`);
  }
  const files = snapshotDiff({ tables: new Map(), files: before.files }, { tables: new Map(), files: after.files });
  return [...out, ...files];
}

// ---------------------------------------------------------------------------
// a phase: its requests, their properties, its counts

const show = (bytes: Buffer, max = 1500) => {
  const text = bytes.toString('latin1').replace(/[^\x20-\x7e\r\n]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return text.length > max ? `${text.slice(0, max)}… (${bytes.length} bytes)` : text;
};

function frame(c: HttpCase): Buffer {
  const lines = [`${c.method} ${c.target} HTTP/1.1`, 'Host: 127.0.0.1', ...c.headers.map(([n, v]) => `${n}: ${v}`)];
  const chunked = c.headers.some(([n]) => n.toLowerCase() === 'transfer-encoding');
  // a form the client gives up on says it is longer than what comes
  if (c.body !== undefined && !chunked) lines.push(`Content-Length: ${c.cutOff ? c.body.length + 65_537 : c.body.length}`);
  lines.push('Connection: close');
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'), c.body ?? Buffer.alloc(0)]);
}

/** The codes the server may close a socket with: the protocol's refusals, an idle socket (1000) and a key holding too many (1013). */
const WS_REFUSALS = new Set([1000, 1002, 1007, 1009, 1013, 4400, 4401, 4403, 4409, 4429]);

interface WsOutcome {
  /** who closed the socket, or 'open' when it was still open after the steps */
  closedBy: 'server' | 'client' | 'open';
  code: number;
  reason: string;
  /** the messages read, parsed */
  messages: any[];
}

/** The lines of the server's output since `from` that log an error (level 50 and up). */
const loggedErrors = (from: number) =>
  server
    .output()
    .slice(from)
    .split('\n')
    .filter((l) => /"level":(5|6)\d/.test(l));

const showStep = (st: WsStep) =>
  st.kind === 'text'
    ? st.text.slice(0, 300)
    : st.kind === 'binary'
      ? `binary ${st.bytes.toString('hex').slice(0, 80)}`
      : st.kind === 'oversized'
        ? `${st.bytes} bytes`
        : 'text frame not UTF-8';

/** A message read as JSON, or its text when it is not JSON. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { text };
  }
}

/** Opens a socket on /graphql, sends `steps` in order, and reads until the server closes it or a moment passes. */
function wsExchange(baseUrl: string, steps: WsStep[]): Promise<WsOutcome> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${baseUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const messages: any[] = [];
    let closing = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        closing = true;
        if (ws.readyState === WebSocket.OPEN) ws.close(1000);
        else resolve({ closedBy: 'open', code: 0, reason: '', messages });
      }, 300);
    };
    ws.on('error', () => {});
    /** called once with the next message or the close: a client waits for its connection_init's answer */
    let heard: (() => void) | undefined;
    const hear = () => {
      const h = heard;
      heard = undefined;
      h?.();
    };
    ws.on('message', (data, binary) => {
      messages.push(binary ? { binary: true } : parsed(String(data)));
      hear();
      settle();
    });
    ws.on('close', (code, reason) => {
      hear();
      clearTimeout(timer);
      resolve({ closedBy: closing ? 'client' : 'server', code, reason: String(reason), messages });
    });
    ws.on('unexpected-response', (_req, res) => resolve({ closedBy: 'server', code: res.statusCode ?? 0, reason: 'upgrade refused', messages }));
    ws.on('open', async () => {
      for (const st of steps) {
        if (ws.readyState !== WebSocket.OPEN) break;
        if (st.kind === 'text') ws.send(st.text);
        else if (st.kind === 'binary') ws.send(st.bytes, { binary: true });
        else if (st.kind === 'badUtf8') ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
        else ws.send(Buffer.alloc(st.bytes, 0x61), { binary: false });
        if (st.kind === 'text' && st.text.includes('"connection_init"')) await new Promise<void>((r) => ((heard = r), setTimeout(hear, 1_000)));
      }
      settle();
    });
  });
}

class Phase {
  requests = 0;
  readonly statuses = new Map<string, number>();
  readonly t0 = Date.now();
  private baseline!: Snapshot;
  private readonly deadline: number;

  constructor(readonly name: PhaseName) {
    this.deadline = this.t0 + PHASES[name].budgetMs;
  }

  private logFrom = 0;

  async begin() {
    this.baseline = await server.snapshot();
    this.logFrom = server.output().length;
  }

  get overBudget() {
    return Date.now() > this.deadline;
  }

  send(c: HttpCase) {
    return this.run(
      { label: c.label, bytes: frame(c), targets: [c.target], complete: !c.cutOff, halfClose: false, waitMs: c.cutOff ? 300 : 15_000, roots: c.roots },
      c.method,
    );
  }

  async run(c: RawCase, method = /^([A-Z]+) /.exec(c.bytes.toString('latin1', 0, 20))?.[1] ?? 'GET') {
    reached.add(c.label);
    this.requests++;
    const logFrom = server.output().length;
    // done once each request has its answer, whether or not the server keeps the connection (SSE answers say keep-alive)
    const ex = c.pace
      ? await pacedExchange(server.url, c.bytes, { ...c.pace, waitMs: c.waitMs })
      : await exchange(server.url, c.bytes, { waitMs: c.waitMs, halfClose: c.halfClose, head: method === 'HEAD', answers: Math.max(1, c.targets.length) });
    // a slow head answered before it was whole names no door yet: its refusal comes in /v1's shape
    const targets = 'headSent' in ex && !ex.headSent ? ['/'] : c.targets;
    const fail = (problem: string) => {
      // the whole request, to send again by hand
      const saved = path.join(os.tmpdir(), `fuzz-${this.name}-failure.bin`);
      fs.writeFileSync(saved, c.bytes);
      const answers = ex.answers.map((a) => `${a.status} ${JSON.stringify(a.headers)}\n${show(a.body, 1000)}`).join('\n---\n');
      throw new Error(
        `${this.name}: ${c.label}: ${problem}\n\nrequest:\n${show(c.bytes)}\n\nanswer${ex.answers.length === 1 ? '' : 's'}:\n${answers || '(none)'}` +
          `\n\nserver output:\n${server.output().slice(-3000)}\n\nthe request's bytes: ${saved}`,
      );
    };
    if (TRACE) {
      const idem = /\r\nidempotency-key: ([^\r]*)/i.exec(c.bytes.toString('latin1', 0, 4096))?.[1];
      const dir = path.join(os.tmpdir(), 'fuzz-trace');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${this.name}-${this.requests}.bin`), c.bytes);
      console.log(
        `${this.name} #${this.requests} ${c.label}${idem ? ` [key ${idem}]` : ''}: ${ex.answers.map((a) => a.status).join(',') || 'none'} in ${ex.ms} ms ${ex.answers[0]?.body.toString('utf8', 0, 160) ?? ''}`,
      );
    }
    for (const a of ex.answers) this.statuses.set(String(a.status), (this.statuses.get(String(a.status)) ?? 0) + 1);
    if (!ex.answers.length) this.statuses.set('none', (this.statuses.get('none') ?? 0) + 1);

    if (!server.alive()) fail('the server process exited');
    if (!ex.answers.length && c.complete) fail(`no answer within ${c.waitMs} ms`);
    ex.answers.forEach((a, i) => {
      const target = targets[i] ?? '/';
      const problems = problemsOf(a, i === 0 ? method : 'GET', target);
      if (problems.length) fail(problems.join('; '));
    });

    // an unexpected error the server logged (level 50 and up) is a fault even when the answer was right
    const logged = loggedErrors(logFrom);
    if (logged.length) fail(`the server logged an error:\n${logged.join('\n').slice(0, 3000)}`);

    if (ex.answers.some((a, i) => accepted(a, targets[i] ?? '/', i === 0 ? c.roots : 1))) {
      const after = await server.snapshot();
      const expected = ex.answers.length === 1 && targets.length === 1 ? acceptedChanges(c.label, ex.answers[0]) : null;
      const beyond = expected ? unexpectedChanges(this.baseline, after, expected) : [];
      if (beyond.length) fail(`${ex.answers[0].status} changed other than it should:\n${beyond.join('\n')}`);
      this.baseline = after;
      return;
    }
    // refused, or never sent whole: nothing changed, once what the request left behind is gone
    const changed = await this.changes();
    if (changed) fail(`the state changed after a refusal:\n${changed}`);
  }

  /** How the state differs from the baseline once what a refused request left behind had a moment to go; '' when it does not. */
  private async changes(): Promise<string> {
    let after = await server.snapshot();
    let diff = snapshotDiff(this.baseline, after);
    for (const t0 = Date.now(); diff.length && Date.now() - t0 < SETTLE_MS; ) {
      await sleep(100);
      after = await server.snapshot();
      diff = snapshotDiff(this.baseline, after);
    }
    if (!diff.length) return '';
    const temp = await server.tempFiles();
    return `${diff.join('\n')}${temp.length ? `\ntemporary files now: ${temp.join(', ')}` : ''}`;
  }

  /**
   * A WebSocket case: each socket ends open, closed by the client, or closed by the server with a
   * refusal of the protocol's (never a fault of the server's: 1011, 4500); no error a socket reads
   * is INTERNAL_SERVER_ERROR; no more sockets of one key are acknowledged than it may hold; and,
   * as every case only reads, nothing changes.
   */
  async ws(c: WsCase) {
    reached.add(c.label);
    this.requests++;
    const logFrom = server.output().length;
    const outcomes = await Promise.all(Array.from({ length: c.sockets }, () => wsExchange(server.url, c.steps)));
    const fail = (problem: string) => {
      throw new Error(
        `${this.name}: ${c.label}: ${problem}\n\nsent:\n${c.steps.map(showStep).join('\n')}\n\nread:\n${JSON.stringify(outcomes, null, 1).slice(0, 3000)}\n\nserver output:\n${server.output().slice(-3000)}`,
      );
    };
    for (const o of outcomes) {
      const key = o.closedBy === 'server' ? `ws ${o.code}` : `ws ${o.closedBy}`;
      this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
    }
    if (!server.alive()) fail('the server process exited');
    for (const o of outcomes) {
      if (o.closedBy === 'server' && !WS_REFUSALS.has(o.code)) fail(`closed ${o.code} ${o.reason}`);
      for (const m of o.messages) {
        const errors: any[] = m.type === 'error' ? (Array.isArray(m.payload) ? m.payload : []) : (m.payload?.errors ?? []);
        const codes = errors.map((e) => e?.extensions?.code);
        if (codes.some((code) => code === 'INTERNAL_SERVER_ERROR' || !CODES.has(code))) fail(`an error with code ${codes.join(', ')}`);
      }
    }
    const acknowledged = outcomes.filter((o) => o.messages.some((m) => m.type === 'connection_ack')).length;
    if (acknowledged > FUZZ_LIMITS.wsMaxSocketsPerKey) fail(`${acknowledged} sockets of one key acknowledged, over ${FUZZ_LIMITS.wsMaxSocketsPerKey}`);
    const logged = loggedErrors(logFrom);
    if (logged.length) fail(`the server logged an error:\n${logged.join('\n').slice(0, 3000)}`);
    const changed = await this.changes();
    if (changed) fail(`the state changed:\n${changed}`);
  }

  /** the process is healthy, nothing temporary stays under DATA_DIR and nothing there is held open */
  async end() {
    expect(server.alive(), 'the server process is running').toBe(true);
    let temp: string[] = [];
    let open: string[] = [];
    for (const t0 = Date.now(); ; ) {
      [temp, open] = await Promise.all([server.tempFiles(), server.openFiles()]);
      if ((!temp.length && !open.length) || Date.now() - t0 > 5_000) break;
      await sleep(200);
    }
    expect(temp, 'temporary files left under DATA_DIR').toEqual([]);
    expect(open, 'files of DATA_DIR the server holds open').toEqual([]);
    expect(await server.healthy(), '/healthz').toBe(true);
    const errors = loggedErrors(this.logFrom);
    expect(errors, 'errors the server logged').toEqual([]);
    const seconds = ((Date.now() - this.t0) / 1000).toFixed(1);
    const statuses = [...this.statuses]
      .sort(([x], [y]) => x.localeCompare(y))
      .map(([s, n]) => `${s}:${n}`)
      .join(' ');
    const fivexx = [...this.statuses].filter(([s]) => Number(s) >= 500).reduce((n, [, k]) => n + k, 0);
    console.log(`fuzz ${this.name}: ${this.requests} requests in ${seconds} s, statuses ${statuses}, 5xx ${fivexx}`);
  }
}

/** Runs `property` on draws of `arb` with the phase's seed and runs; a failure names its seed. */
async function fuzz<T>(name: PhaseName, arb: (ctx: InputContext) => fc.Arbitrary<T>, send: (phase: Phase, value: T) => Promise<void>) {
  const phase = new Phase(name);
  await phase.begin();
  const seed = seedOf(name);
  const details = await fc.check(
    fc.asyncProperty(arb(ctx), async (value) => {
      if (phase.overBudget) return;
      await send(phase, value);
    }),
    { seed, numRuns: PHASES[name].runs, endOnFailure: true },
  );
  if (details.failed) {
    const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(
      `fuzz ${name} failed (replay: FUZZ_SEED=${BASE_SEED} FUZZ_ONLY=${name}; fast-check seed ${seed}, path ${details.counterexamplePath})\n${cause}`,
    );
  }
  await phase.end();
}

const phaseIt = (name: PhaseName, body: () => Promise<void>) => it.skipIf(!!ONLY && ONLY !== name)(name, body, 120_000);

// the server process, the snapshots and the test process share one PostgreSQL server (the embedded database takes one connection at a time)
describe.skipIf(!serverUrl())('fuzz of the HTTP service', () => {
  beforeAll(async () => {
    server = await startFuzzServer();
    const actors = [];
    actors.push(await server.createActor('a'));
    // a few API credits left: publishing runs out of them (402)
    actors.push(await server.createActor('b', { apiCredits: 6 }));
    // without API publishing: publishing itself is refused (403), the rest as for the others
    actors.push(await server.createActor('c', { apiPublishing: false }));
    const music = await fetch(`${server.url}/v1/music`, { headers: { 'x-api-key': actors[0].key } }).then(
      (r) => r.json() as Promise<{ items: Array<{ id: string }> }>,
    );
    const fx = server.fixtures;
    const read = (f: string) => fs.readFileSync(f);
    ctx = {
      actors,
      foreign: server.foreign,
      urls: {
        video: server.files.url('clip.mp4'),
        audio: server.files.url('tone.mp3'),
        image: server.files.url('image.png'),
        page: server.files.url('page.html'),
        text: server.files.url('notes.txt'),
        noise: server.files.url('noise.bin'),
        missing: server.files.url('missing.mp4'),
        closed: 'http://127.0.0.1:1/v.mp4',
      },
      uploads: {
        video: read(fx.video),
        audio: read(fx.audio),
        image: read(fx.image),
        noise: read(fx.noise),
        page: read(fx.page),
        empty: Buffer.alloc(0),
        tooLarge: Buffer.alloc(server.maxProjectBytes + 4096, 7),
      },
      musicIds: music.items.map((m) => m.id),
      signedFile: server.signedFile,
      signedPathFor: server.signedPathFor,
      schema: buildSchema(fs.readFileSync(path.join(ROOT, 'schema/schema.graphql'), 'utf8')),
    };
    // connecting is accepted on the platforms given a client, else the fuzz would only ever see it refused
    const platforms = await fetch(`${server.url}/v1/platforms`, { headers: { 'x-api-key': actors[0].key } }).then(
      (r) => r.json() as Promise<{ data: Array<{ key: string; available: boolean }> }>,
    );
    const available = platforms.data.filter((p) => p.available).map((p) => p.key);
    if (available.join() !== CONFIGURED_PLATFORMS.join())
      throw new Error(`the platforms available are ${available.join(', ') || 'none'}, not ${CONFIGURED_PLATFORMS.join(', ')}`);
    // with nobody calling, the state stands still: else a change after a refusal would prove nothing
    const a = await server.snapshot();
    const unwatched = WATCHED_TABLES.filter((t) => !a.tables.has(t));
    if (unwatched.length) throw new Error(`the snapshot leaves out ${unwatched.join(', ')}`);
    await sleep(1_000);
    const idle = snapshotDiff(a, await server.snapshot());
    if (idle.length) throw new Error(`the state changes with no request:\n${idle.join('\n')}`);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  phaseIt('rest-json', () => fuzz('rest-json', restJsonCase, (p, c) => p.send(c)));
  phaseIt('query-path', () => fuzz('query-path', queryPathCase, (p, c) => p.send(c)));
  phaseIt('headers', () => fuzz('headers', headerCase, (p, c) => p.send(c)));
  phaseIt('multipart', () => fuzz('multipart', multipartCase, (p, c) => p.send(c)));
  phaseIt('graphql', () => fuzz('graphql', graphqlCase, (p, c) => p.send(c)));
  phaseIt('framing', () => fuzz('framing', rawCase, (p, c) => p.run(c)));
  phaseIt('slow-body', () => fuzz('slow-body', slowCase, (p, c) => p.run(c)));
  phaseIt('websocket', () =>
    fuzz(
      'websocket',
      (x) => wsCase(x, { maxPayloadBytes: FUZZ_LIMITS.wsMaxPayloadBytes, maxSocketsPerKey: FUZZ_LIMITS.wsMaxSocketsPerKey }),
      (p, c) => p.ws(c),
    ),
  );

  it.skipIf(!!ONLY)('reached every /v1 route and every mutation of the schema', () => {
    expect(REST_ROUTES.map((r) => `${r.method} ${r.url}`).sort()).toEqual(routes.map((r) => `${r.method} ${r.url}`).sort());
    const labels = [...reached];
    const missing = [
      ...REST_ROUTES.map((r) => `${r.method} ${r.url}`).filter((route) => !labels.some((l) => l === route || l.startsWith(`${route} (`))),
      ...Object.keys(ctx.schema.getMutationType()!.getFields()).filter(
        (m) => !labels.some((l) => l.startsWith('POST /graphql') && (l.split(' ')[2] ?? '').split(',').includes(m)),
      ),
    ];
    expect(missing).toEqual([]);
  });
});
