/** The webhook events and their payloads (DECISIONS.md, Webhook payloads). */

export type ProjectEvent = 'project.completed' | 'project.failed';
export type ExportEvent = 'export.completed' | 'export.failed';
export type MagicClipsEvent = 'magic_clips.completed' | 'magic_clips.failed';
export type WebhookEvent = ProjectEvent | ExportEvent | MagicClipsEvent;

export interface ProjectPayload {
  event: ProjectEvent;
  projectId: string;
  status: 'completed' | 'failed';
  /** null when nothing was rendered (autoRender false, or failed) */
  downloadUrl: string | null;
  directUrl: string | null;
  failureReason?: string;
  /** ISO 8601, when the project reached `status` */
  timestamp: string;
}

export interface ExportPayload {
  event: ExportEvent;
  projectId: string;
  exportId: string;
  status: 'completed' | 'failed';
  downloadUrl: string | null;
  directUrl: string | null;
  width: number;
  height: number;
  fps: number;
  /** seconds; null when the export failed before it was known */
  duration: number | null;
  /** why a failed export failed */
  failureReason?: string;
  timestamp: string;
}

export interface MagicClipPayload {
  id: string;
  title: string;
  duration: number;
  viralityScores: { total: number; shareability: number; hook_strength: number; story_quality: number; emotional_impact: number };
  /** processing, completed or failed */
  status: string;
  /** null for a clip that failed */
  previewUrl: string | null;
  downloadUrl: string | null;
  directUrl: string | null;
}

/** SPEC.md's magic-clips payload plus `event` */
export interface MagicClipsPayload {
  event: MagicClipsEvent;
  projectId: string;
  status: 'completed' | 'failed';
  title: string;
  /** seconds, of the original video */
  duration: number;
  completedAt: string;
  /** why the project failed */
  failureReason?: string;
  magicClips: MagicClipPayload[];
}

export type WebhookPayload<E extends WebhookEvent> = E extends ProjectEvent
  ? ProjectPayload
  : E extends ExportEvent
    ? ExportPayload
    : MagicClipsPayload;
