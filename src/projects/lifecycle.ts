/**
 * The moves of a project's status (DESIGN.md, the state machine), per project
 * kind, with what each move brings along: the webhook it makes due and the
 * credits it gives back. Every move is one conditional UPDATE (`WHERE status
 * IN from`), so of two runs attempting it (a job run twice) exactly one makes
 * it; its side effects share its transaction, and subscribers hear of it after.
 */
import type { App } from '../app.js';
import { refund } from '../credits/ledger.js';
import type { Prisma, Project, ProjectKind, ProjectStatus } from '../generated/prisma/client.ts';
import type { WebhookEvent } from '../webhooks/events.js';
import { dispatchWebhook, enqueueWebhook, type RecordedWebhook } from '../webhooks/service.js';
import { clipRecord } from './clip-records.js';
import { refundMissingBroll } from './credits.js';
import { metaOf } from './service.js';
import { publishProject } from './state.js';
import { logFor, withIds } from '../logger.js';

type Tx = Prisma.TransactionClient;
type Outcome = 'completed' | 'failed';
/** Whose failure a failed move records: a failure the caller caused keeps what it paid for magic clips. */
export type Cause = 'caller' | 'service';

export interface MoveRule {
  from: readonly ProjectStatus[];
  to: ProjectStatus;
  /** the rest of the row's change that always comes with the move */
  set?: () => Prisma.ProjectUpdateManyMutationInput;
  /** the project webhook the move makes due; its event name comes from the kind */
  webhook?: Outcome;
  /** credits given back in the move's transaction */
  refund?: (tx: Tx, p: Project, cause: Cause) => Promise<number>;
}

const progress = (stage: string, percent: number) => ({ progress: { stage, percent } });

const failed: MoveRule = { from: [], to: 'failed', set: () => progress('failed', 0), webhook: 'failed' };

/** The moves of each kind; a move not listed here cannot happen. */
export const MOVES = {
  edit: {
    /** source fetched and probed */
    transcribe: { from: ['processing'], to: 'transcribing', set: () => ({ transcriptionStatus: 'PROCESSING', ...progress('extract', 0) }) },
    /** words stored, autoRender false */
    complete: {
      from: ['transcribing'],
      to: 'completed',
      set: () => ({ transcriptionStatus: 'COMPLETED', completedAt: new Date(), failureReason: null, ...progress('done', 100) }),
      webhook: 'completed',
    },
    /** words stored, autoRender true: the pipeline ends in a render */
    autoRender: { from: ['transcribing'], to: 'exporting', set: () => ({ transcriptionStatus: 'COMPLETED', ...progress('render', 0) }) },
    export: { from: ['completed'], to: 'exporting', set: () => ({ failureReason: null, ...progress('render', 0) }) },
    /** the render's end; the project webhook is due only when the render was the automatic one */
    exported: {
      from: ['exporting'],
      to: 'completed',
      set: () => ({ failureReason: null, completedAt: new Date(), ...progress('done', 100) }),
      webhook: 'completed',
    },
    /** a failed render leaves the project completed with its previous output */
    exportFailed: { from: ['exporting'], to: 'completed', set: () => progress('failed', 0), webhook: 'failed' },
    /** an update with AI B-roll items: their clips are made next */
    updateBroll: { from: ['completed', 'failed'], to: 'processing', set: () => ({ failureReason: null, ...progress('broll', 0) }) },
    brollMade: { from: ['processing'], to: 'completed', set: () => ({ failureReason: null, ...progress('done', 100) }), webhook: 'completed' },
    /** any step of the pipeline or of AI B-roll: the credits of the clips not made come back */
    fail: { ...failed, from: ['processing', 'transcribing'], refund: (tx, p) => refundMissingBroll(tx, p) },
  },
  magic_clips: {
    complete: {
      from: ['processing'],
      to: 'completed',
      set: () => ({ completedAt: new Date(), failureReason: null, ...progress('done', 100) }),
      webhook: 'completed',
    },
    fail: {
      ...failed,
      from: ['processing'],
      refund: (tx, p, cause) =>
        cause === 'caller'
          ? Promise.resolve(0)
          : refund(tx, p.userId, { kind: 'clip', amount: 1, reason: 'refund: the magic clips could not be made', subjectId: p.id }),
    },
  },
} as const satisfies Record<ProjectKind, Record<string, MoveRule>>;

/** A move of any kind; `move` refuses one the project's kind does not list. */
export type MoveName = { [K in ProjectKind]: keyof (typeof MOVES)[K] & string }[ProjectKind];

/** The prefix of a kind's webhook events (DECISIONS.md, Webhook payloads). */
const EVENT_PREFIX = { edit: 'project', magic_clips: 'magic_clips' } as const satisfies Record<ProjectKind, string>;

export const webhookEvent = (kind: ProjectKind, outcome: Outcome) => `${EVENT_PREFIX[kind]}.${outcome}` as WebhookEvent;

export function ruleOf(kind: ProjectKind, name: string): MoveRule {
  const rule = (MOVES[kind] as Record<string, MoveRule>)[name];
  if (!rule) throw new Error(`a ${kind} project has no move "${name}"`);
  return rule;
}

export interface MoveOptions {
  /** more of the row's change (a failure reason, the rendered output, updated settings) */
  data?: Prisma.ProjectUpdateManyMutationInput;
  /** more conditions of the UPDATE (the row as the caller read it) */
  where?: Prisma.ProjectWhereInput;
  /** more work in the move's transaction (an export row, a debit) */
  also?: (tx: Tx, project: Project) => Promise<unknown>;
  /** false when the move's webhook is not due this time (a render the caller asked for) */
  webhook?: boolean;
  cause?: Cause;
}

/**
 * Makes one move of the table: a single conditional UPDATE, then in the same
 * transaction the caller's work, the refund and the webhook record; after the
 * commit, subscribers hear of it and the webhook is sent. Returns the updated
 * row, or null when the project was not in one of the move's `from` states.
 */
export async function move(app: App, project: Pick<Project, 'id' | 'kind'>, name: MoveName, opts: MoveOptions = {}): Promise<Project | null> {
  const rule = ruleOf(project.kind, name);
  let recorded: RecordedWebhook | undefined;
  const updated = await app.db.$transaction(async (tx) => {
    const { count } = await tx.project.updateMany({
      where: { ...opts.where, id: project.id, kind: project.kind, status: { in: [...rule.from] } },
      data: { ...rule.set?.(), ...opts.data, status: rule.to },
    });
    if (count === 0) return null;
    const row = await tx.project.findUniqueOrThrow({ where: { id: project.id } });
    await opts.also?.(tx, row);
    await rule.refund?.(tx, row, opts.cause ?? 'service');
    if (rule.webhook && opts.webhook !== false) recorded = await recordWebhook(app, tx, row, rule.webhook);
    return row;
  });
  if (updated) {
    const reason = updated.status === 'failed' || name === 'exportFailed' ? { reason: updated.failureReason } : {};
    withIds(logFor(app.log), { projectId: updated.id }).info(
      { status: updated.status, move: name, ...reason },
      name === 'exportFailed' ? 'project export failed' : `project ${updated.status}`,
    );
    publishProject(app, updated);
  }
  if (recorded?.created) await dispatchWebhook(app, recorded.deliveryId);
  return updated;
}

/**
 * Any step → failed with the reason, the failed webhook and the kind's refund.
 * A project that was transcribed keeps its transcription COMPLETED (a later
 * step failed, not the transcription).
 */
export const fail = (app: App, project: Pick<Project, 'id' | 'kind'>, reason: string, cause: Cause = 'service') =>
  move(app, project, 'fail', {
    data: { failureReason: reason },
    cause,
    async also(tx, p) {
      if (p.transcriptionStatus === 'COMPLETED') return;
      p.transcriptionStatus = 'FAILED';
      await tx.project.update({ where: { id: p.id }, data: { transcriptionStatus: 'FAILED' } });
    },
  });

/** Each kind's webhook payload (DECISIONS.md, Webhook payloads), by the project's kind. */
const WEBHOOK_PAYLOADS = { edit: editPayload, magic_clips: magicClipsPayload } as const satisfies Record<
  ProjectKind,
  (app: App, tx: Tx, p: Project, outcome: Outcome) => unknown
>;

/**
 * Records a project's webhook (payload of DECISIONS.md) inside the move's
 * transaction; nothing when the project has no webhookUrl.
 */
async function recordWebhook(app: App, tx: Tx, p: Project, outcome: Outcome): Promise<RecordedWebhook | undefined> {
  if (!p.webhookUrl) return undefined;
  const event = webhookEvent(p.kind, outcome);
  const payload = await WEBHOOK_PAYLOADS[p.kind](app, tx, p, outcome);
  return enqueueWebhook(
    app,
    {
      userId: p.userId,
      url: p.webhookUrl,
      event,
      subjectId: p.id,
      // one per move: a project completes again after an update's AI B-roll is made
      dedupeKey: `${event}:${p.id}:${p.updatedAt.getTime()}`,
      payload: { event, ...payload } as never,
    },
    tx,
  );
}

function editPayload(app: App, _tx: Tx, p: Project, outcome: Outcome) {
  const rendered = p.renderedKey;
  return {
    projectId: p.id,
    status: outcome,
    downloadUrl: rendered ? app.storage.url(rendered, { download: `${p.title}.mp4` }) : null,
    directUrl: rendered ? app.storage.url(rendered) : null,
    ...(p.failureReason ? { failureReason: p.failureReason } : {}),
    timestamp: new Date().toISOString(),
  };
}

async function magicClipsPayload(app: App, tx: Tx, p: Project, outcome: Outcome) {
  const clips = await tx.magicClip.findMany({ where: { projectId: p.id }, orderBy: { startTime: 'asc' } });
  return {
    projectId: p.id,
    status: outcome,
    title: p.title,
    duration: metaOf(p)?.duration ?? 0,
    completedAt: (p.completedAt ?? new Date()).toISOString(),
    ...(p.failureReason ? { failureReason: p.failureReason } : {}),
    magicClips: clips.map((c) => clipRecord(app.storage, c)),
  };
}
