/**
 * POST /v1/projects/{id}/publish and its mutation (SPEC.md; DECISIONS.md,
 * Publishing and Money). A request is read in the order a caller fixes it:
 * the project (404), every violated field at once (400 VALIDATION_ERROR, the
 * body's rules and those that need the profile's accounts), the export (400
 * BAD_REQUEST), the accounts (412 naming the platforms not connected), then
 * the credits (402, 1 API credit per post). Nothing is written until all
 * pass; then one transaction debits the credits and writes the publication
 * with its posts, and the delivery jobs are queued (delivery.ts).
 */
import crypto from 'node:crypto';
import type { App } from '../app.js';
import type { AuthUser } from '../auth/authenticate.js';
import { PLATFORM_KEYS, type PlatformKey } from '../catalog/platforms.js';
import { debit, refund } from '../credits/ledger.js';
import { paymentRequired } from '../credits/shortfall.js';
import { AppError, badRequest, FieldErrors, forbidden, notFound } from '../errors.js';
import type { Prisma, Project, Publication } from '../generated/prisma/client.ts';
import { JOB_NAMES } from '../jobs/names.js';
import { getProject } from '../projects/service.js';
import { isPlainObject, outOfDateRange, parseDateTime, readBody } from '../validation.js';
import { publishBody, type PublishBody } from './schemas.js';
import { postContentColumn } from '../platforms/types.js';
import { API_CREDITS_PER_POST, dispatchPosts } from './delivery.js';
import { publishPublicationEvent } from './events.js';

/** The 403 of a plan without API publishing (SPEC.md, Authentication), both doors. */
export const NO_API_PUBLISHING = 'Your plan does not allow API publishing';

export const newPublicationId = () => `pub_${crypto.randomUUID()}`;

/** What publishing a project answers (SPEC.md): `published` when dispatched at once, `scheduled` otherwise. */
export interface PublishAnswer {
  publication: Publication;
  status: 'published' | 'scheduled';
}

interface ReadPublish {
  body: PublishBody;
  platforms: PlatformKey[];
  profileId: string;
  scheduledFor: Date | null;
  accounts: Map<PlatformKey, { id: string; isPrivate: boolean }>;
}

/** The user's profile a publication goes through: the one named, else the primary (or the only) one. */
async function profileFor(app: App, userId: string, profileId: string | undefined, errors: FieldErrors) {
  if (profileId !== undefined) {
    const p = await app.db.profile.findFirst({ where: { id: profileId, userId }, select: { id: true } });
    if (!p) errors.add('profileId', 'is not one of your profiles', profileId);
    return p?.id ?? null;
  }
  const p = await app.db.profile.findFirst({ where: { userId }, orderBy: [{ isPrimary: 'desc' }, { createdAt: 'asc' }], select: { id: true } });
  return p?.id ?? null;
}

/**
 * Reads and checks a publish body against the caller's project and profile;
 * throws the first class of problem found, with every problem of that class.
 */
export type PublishRead = ReadPublish & { project: Project };

export async function readPublish(app: App, user: AuthUser, projectId: string, input: unknown, now = new Date()): Promise<PublishRead> {
  // the plan first, whichever door: the REST check reads the body before GraphQL's scope runs
  if (!user.apiPublishing) throw forbidden(NO_API_PUBLISHING);
  const project = await getProject(app, user.id, projectId);
  const errors = new FieldErrors();
  const body = readBody(publishBody, input, errors);
  const raw = isPlainObject(input) ? input : {};

  const scheduledFor = errors.has('scheduledFor') ? null : parseDateTime(raw.scheduledFor);
  if (scheduledFor && scheduledFor.getTime() <= now.getTime()) errors.add('scheduledFor', 'must be in the future', raw.scheduledFor);
  else if (scheduledFor && outOfDateRange(scheduledFor)) errors.add('scheduledFor', outOfDateRange(scheduledFor)!, raw.scheduledFor);

  const profileId = await profileFor(app, user.id, typeof raw.profileId === 'string' && !errors.has('profileId') ? raw.profileId : undefined, errors);
  const platformsSent = isPlainObject(raw.platforms)
    ? PLATFORM_KEYS.filter((k) => raw.platforms && (raw.platforms as Record<string, unknown>)[k] !== undefined)
    : [];
  const accountRows = profileId
    ? await app.db.socialAccount.findMany({
        where: { profileId, platform: { in: platformsSent } },
        select: { id: true, platform: true, isPrivate: true, status: true },
      })
    : [];
  // a disconnected account is there but cannot post: it is refused as one never connected
  const disconnected = new Set(accountRows.filter((a) => a.status === 'disconnected').map((a) => a.platform as PlatformKey));
  const accounts = new Map(accountRows.filter((a) => a.status === 'connected').map((a) => [a.platform as PlatformKey, { id: a.id, isPrivate: a.isPrivate }]));

  // a private shortvideo account cannot post public, which is also the default
  const short = body?.platforms.shortvideo;
  if (short && accounts.get('shortvideo')?.isPrivate && (short.privacyLevel ?? 'public') === 'public') {
    errors.add('platforms.shortvideo.privacyLevel', 'cannot be public: the shortvideo account of this profile is private', short.privacyLevel ?? 'public');
  }
  errors.throwIfAny();

  if (project.status !== 'completed' || !project.renderedKey) {
    throw badRequest(
      `Project is not exported: publish needs a completed export (status is ${project.status}${project.renderedKey ? '' : ', no rendered video'})`,
    );
  }
  const missing = platformsSent.filter((k) => !accounts.has(k));
  if (missing.length) {
    const where = profileId ? 'in this profile' : '(you have no profile)';
    throw new AppError('PRECONDITION_FAILED', `No connected account ${where} for: ${missing.join(', ')}`, {
      details: missing.map((platform) => ({
        field: `platforms.${platform}`,
        message: disconnected.has(platform) ? 'is disconnected; connect the account again' : 'is not connected',
        value: platform,
      })),
    });
  }
  return { body: body!, platforms: platformsSent, profileId: profileId!, scheduledFor, accounts, project };
}

/** Publishes (or schedules) a read request: credits, rows and jobs. `checked` is the body as readPublish read it already (the REST check). */
export async function publishProject(app: App, user: AuthUser, projectId: string, input: unknown, checked?: PublishRead): Promise<PublishAnswer> {
  const read = checked ?? (await readPublish(app, user, projectId, input));
  const cost = API_CREDITS_PER_POST * read.platforms.length;
  const id = newPublicationId();
  const scheduled = read.scheduledFor !== null;
  const publication = await app.db.$transaction(async (tx) => {
    // the project stays until the publication is made: a deletion waits for it, or it for the deletion (then NOT_FOUND)
    const [kept] = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "Project" WHERE id = ${read.project.id}::uuid FOR SHARE`;
    if (!kept) throw notFound('Project');
    await debit(
      tx,
      user.id,
      { kind: 'api', amount: cost, reason: 'publish', subjectId: id },
      { shortfall: paymentRequired('api', cost, `Publishing to ${read.platforms.length} platform${read.platforms.length === 1 ? '' : 's'}`) },
    );
    return tx.publication.create({
      data: {
        id,
        userId: user.id,
        projectId: read.project.id,
        projectTitle: read.project.title,
        profileId: read.profileId,
        scheduled,
        publishedAt: read.scheduledFor ?? new Date(),
        status: scheduled ? 'scheduled' : 'processing',
        platforms: read.platforms,
        mediaKey: read.project.renderedKey!,
        posts: {
          create: read.platforms.map((platform) => ({
            platform,
            accountId: read.accounts.get(platform)!.id,
            // read.platforms are the members the body holds
            content: postContentColumn.write(read.body.platforms[platform]!),
            publishStatus: scheduled ? 'scheduled' : 'processing',
            nextAttemptAt: scheduled ? null : new Date(),
          })),
        },
      },
    });
  });
  if (scheduled) await queueScheduled(app, publication);
  else await dispatchPosts(app, publication.id, user.id);
  await publishPublicationEvent(app, publication.id);
  return { publication, status: scheduled ? 'scheduled' : 'published' };
}

/** The job that fires a scheduled publication at its time; the sweep of delivery.ts fires it should this be lost. */
async function queueScheduled(app: App, p: Publication) {
  try {
    await app.jobs.enqueue(JOB_NAMES.firePublication, { publicationId: p.id, userId: p.userId }, { at: p.publishedAt, once: { publicationId: p.id } });
  } catch (err) {
    app.log.warn({ err, publicationId: p.id }, 'could not queue a scheduled publication; the sweep will fire it');
  }
}

/** One of the user's publications, or NOT_FOUND. */
export async function findPublication(app: App, userId: string, id: string): Promise<Publication> {
  const p = typeof id === 'string' && id.length <= 80 ? await app.db.publication.findFirst({ where: { id, userId } }) : null;
  if (!p) throw notFound('Publication');
  return p;
}

/**
 * Cancels a scheduled publication before it fires: it is deleted with its
 * posts and its credits come back, in one transaction that holds its row, so
 * it either fires or is cancelled, never both. Only a scheduled publication
 * can be cancelled (400 BAD_REQUEST otherwise).
 */
export async function cancelPublication(app: App, userId: string, id: string): Promise<{ id: string; refundedCredits: number }> {
  const refunded = await app.db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM "Publication" WHERE id = ${id} AND "userId" = ${userId}::uuid FOR UPDATE`;
    if (!row) throw notFound('Publication');
    if (row.status !== 'scheduled') throw badRequest(`Only a scheduled publication can be cancelled; this one is ${row.status}`);
    return dropScheduled(tx, userId, id);
  });
  app.log.info({ publicationId: id, refundedCredits: refunded }, 'scheduled publication cancelled');
  await publishPublicationEvent(app, id, { userId });
  return { id, refundedCredits: refunded };
}

/**
 * Inside a transaction that holds the scheduled publication's row: deletes it
 * with its posts and gives their credits back; resolves to the credits.
 */
export async function dropScheduled(tx: Prisma.TransactionClient, userId: string, id: string): Promise<number> {
  const posts = await tx.post.count({ where: { publicationId: id } });
  const amount = await refund(tx, userId, { kind: 'api', amount: posts * API_CREDITS_PER_POST, reason: 'publication cancelled', subjectId: id });
  await tx.publication.delete({ where: { id } });
  return amount;
}
