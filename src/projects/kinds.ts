/**
 * What a kind of project (an edit, magic clips) differs in on the one way
 * every project gets its source and transcript (source.ts): the body it is
 * created with, what it costs, the job that runs its pipeline, the largest
 * source it takes, how a URL's source is fetched and what is stored with the
 * words. Each kind's domain defines its own (edit-kind.ts,
 * src/magic-clips/service.ts) and hands it to source.ts, so this layer
 * imports none of them. What the lifecycle knows of a kind (its moves,
 * refunds and webhooks) is its tables in lifecycle.ts.
 */
import type { z } from 'zod';
import type { App } from '../app.js';
import type { AuthUser } from '../auth/authenticate.js';
import { DEFAULT_CAPTION_TEMPLATE } from '../catalog/caption-templates.js';
import { findLanguage, languagesFor } from '../catalog/languages.js';
import type { Config } from '../config.js';
import { FieldErrors } from '../errors.js';
import type { Prisma, Project, ProjectKind } from '../generated/prisma/client.ts';
import type { JobName } from '../jobs/names.js';
import type { Word } from '../media/transcript.js';
import { isPlainObject, readBody } from '../validation.js';
import type { IngestReport } from './ingest.js';

type Tx = Prisma.TransactionClient;

/** The settings a project of every kind is created with. */
export interface CreationSettings {
  title: string;
  language: string;
  webhookUrl?: string;
  templateName: string;
  userThemeId?: string;
}

export interface ProjectKindDef<S extends CreationSettings = CreationSettings> {
  kind: ProjectKind;
  /** what its pipeline's log lines call it */
  logName: string;
  /** the job that runs its pipeline */
  job: JobName;
  /** the largest source it takes, uploaded or fetched (bytes) */
  maxBytes(config: Config): number;
  /** reads and checks a creation body: every refusal comes before anything is stored or a byte of an upload is read */
  readBody(app: App, user: AuthUser, body: unknown, source: 'url' | 'upload'): Promise<S>;
  /** reaches a URL project's source before it is stored; a kind without it leaves that to its pipeline */
  checkUrl?(app: App, settings: S): Promise<void>;
  /** the kind's own fields of the new project's row, from its checked settings */
  data(settings: S): Partial<Prisma.ProjectUncheckedCreateInput>;
  /** takes what the project costs in the transaction that stores it; too little refuses it whole */
  debit(tx: Tx, userId: string, settings: S, projectId: string): Promise<unknown>;
  /** stores a URL project's source (at most `maxBytes`) and returns its storage key */
  fetchSource(app: App, input: { projectId: string; url: string; maxBytes: number; report: IngestReport }): Promise<string>;
  /** the creation field a fetched file that is no video is blamed on */
  urlField: string;
  /** the project moves to `transcribing` (the lifecycle's `transcribe`) once its source is probed; otherwise it stays `processing` */
  transcribing: boolean;
  /** more of the row, stored with the words */
  transcribed(app: App, project: Project, transcript: Word[]): Promise<Prisma.ProjectUpdateInput>;
}

/** A creation body as far as every kind reads it; `ok(field)`: the field was given and has no problem. */
export interface CreationBody<T> {
  errors: FieldErrors;
  /** the body as its schema reads it; null while `errors` has any */
  parsed: T | null;
  fields: Record<string, unknown>;
  ok(field: string): boolean;
}

/**
 * What every kind's body reader starts with: the schema of a URL's body or
 * of an upload's fields, then a language the configured engine transcribes.
 * The problems are collected, for the reader's own checks to join them.
 */
export function readCreationBody<T extends z.ZodType>(
  app: Pick<App, 'config' | 'transcriber'>,
  input: unknown,
  source: 'url' | 'upload',
  schemas: { url: T; upload: z.ZodType },
): CreationBody<z.output<T>> {
  const errors = new FieldErrors();
  // an upload's fields are the URL body's but its URL, so what it reads is read as the URL body
  const parsed = readBody(source === 'url' ? schemas.url : schemas.upload, input, errors) as z.output<T> | null;
  const fields = isPlainObject(input) ? input : {};
  const ok = (field: string) => fields[field] !== undefined && !errors.has(field);
  const language = ok('language') ? findLanguage(fields.language as string) : undefined;
  if (language && !languagesFor(app.config.transcriber, (code) => app.transcriber.supports(code)).includes(language)) {
    errors.add('language', `cannot be transcribed by the configured engine (${app.config.transcriber}); see GET /v1/languages`, fields.language);
  }
  return { errors, parsed, fields, ok };
}

/** The settings every kind takes from its checked body, defaults applied. */
export function creationSettings(b: { title: string; language: string; webhookUrl?: string; templateName?: string; userThemeId?: string }): CreationSettings {
  return {
    title: b.title,
    language: b.language.toLowerCase(),
    webhookUrl: b.webhookUrl ? new URL(b.webhookUrl).toString() : undefined,
    templateName: b.templateName ?? DEFAULT_CAPTION_TEMPLATE.name,
    userThemeId: b.userThemeId,
  };
}
