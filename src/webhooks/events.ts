/**
 * The webhook events and their payloads (DECISIONS.md, Webhook payloads), as
 * zod schemas: the types below are inferred from them, and the API reference's
 * `webhooks` are made of them.
 */
import { z } from 'zod';

const url = (what: string) =>
  z
    .string()
    .nullable()
    .meta({ description: `${what}; null when nothing was rendered` });
const timestamp = (what: string) => z.string().meta({ format: 'date-time', description: `ISO 8601, ${what}` });
const failureReason = z.string().optional().meta({ description: 'why it failed, on a failure' });

export const projectPayload = z
  .object({
    event: z.enum(['project.completed', 'project.failed']),
    projectId: z.string(),
    status: z.enum(['completed', 'failed']),
    downloadUrl: url('the rendered video (autoRender false renders nothing)'),
    directUrl: url('the rendered video, playable in place'),
    failureReason,
    timestamp: timestamp('when the project reached status'),
  })
  .meta({ description: 'A project was made (transcribed, and rendered unless autoRender was false) or failed' });

export const exportPayload = z
  .object({
    event: z.enum(['export.completed', 'export.failed']),
    projectId: z.string(),
    exportId: z.string(),
    status: z.enum(['completed', 'failed']),
    downloadUrl: url('the exported video'),
    directUrl: url('the exported video, playable in place'),
    width: z.number(),
    height: z.number(),
    fps: z.number(),
    duration: z.number().nullable().meta({ description: 'seconds; null when the export failed before it was known' }),
    failureReason,
    timestamp: timestamp('when the export ended'),
  })
  .meta({ description: 'An export that was given a webhookUrl completed or failed' });

export const magicClipPayload = z.object({
  id: z.string(),
  title: z.string().meta({ description: 'written from the clip' }),
  duration: z.number().meta({ description: 'seconds' }),
  viralityScores: z.object({ total: z.number(), shareability: z.number(), hook_strength: z.number(), story_quality: z.number(), emotional_impact: z.number() }),
  projectId: z.string().nullable().meta({ description: 'the edit project made of the clip', extension: 'every clip an edit project' }),
  viralityReasons: z.array(z.string()).meta({ description: 'why it scored so: two to four short sentences', extension: 'reasons for the scores' }),
  rank: z.number().meta({ description: "1 = the project's best clip", extension: 'the ranking of the clips' }),
  startTime: z.number().meta({ description: 'where the clip starts in the source, seconds', extension: 'the window in the source' }),
  endTime: z.number().meta({ description: 'where the clip ends in the source, seconds', extension: 'the window in the source' }),
  hookTitle: z.string().nullable().meta({ description: 'the hook drawn over its first seconds; null: none', extension: 'a hook title on every clip' }),
  status: z.string().meta({ description: 'processing, completed or failed' }),
  previewUrl: z.string().nullable().meta({ description: 'null for a clip that failed' }),
  downloadUrl: z.string().nullable(),
  directUrl: z.string().nullable(),
});

/** SPEC.md's magic-clips payload plus `event` */
export const magicClipsPayload = z
  .object({
    event: z.enum(['magic_clips.completed', 'magic_clips.failed']),
    projectId: z.string(),
    status: z.enum(['completed', 'failed']),
    title: z.string(),
    duration: z.number().meta({ description: 'seconds, of the original video' }),
    completedAt: timestamp('when the clips were made'),
    failureReason,
    magicClips: z.array(magicClipPayload),
  })
  .meta({ description: 'The clips of a magic-clips project were made, or the project failed' });

export type ProjectPayload = z.infer<typeof projectPayload>;
export type ExportPayload = z.infer<typeof exportPayload>;
export type MagicClipPayload = z.infer<typeof magicClipPayload>;
export type MagicClipsPayload = z.infer<typeof magicClipsPayload>;

export type ProjectEvent = ProjectPayload['event'];
export type ExportEvent = ExportPayload['event'];
export type MagicClipsEvent = MagicClipsPayload['event'];
export type WebhookEvent = ProjectEvent | ExportEvent | MagicClipsEvent;

/** Each event's payload schema, by event name. */
export const WEBHOOK_PAYLOADS = Object.fromEntries(
  [projectPayload, exportPayload, magicClipsPayload].flatMap((schema) => schema.shape.event.options.map((event) => [event, schema])),
) as Record<WebhookEvent, typeof projectPayload | typeof exportPayload | typeof magicClipsPayload>;

export type WebhookPayload<E extends WebhookEvent> = E extends ProjectEvent ? ProjectPayload : E extends ExportEvent ? ExportPayload : MagicClipsPayload;
