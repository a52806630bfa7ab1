// The operations the console sends, with the shapes of their answers (the
// schema is schema/schema.graphql).
import { gql } from 'urql';

export const TERMINAL = new Set(['completed', 'failed']);

export interface ProjectUpdate {
  projectId: string;
  status: string;
  stage: string | null;
  percent: number | null;
  clipsDone: number | null;
  clipsTotal: number | null;
  failureReason: string | null;
  at: string;
}

export interface ProjectSummary {
  id: string;
  title: string;
  kind: 'edit' | 'magic_clips';
  status: string;
  progress: { stage: string; percent: number; clipsDone: number | null; clipsTotal: number | null } | null;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Export {
  id: string;
  status: string;
  progress: number;
  width: number;
  height: number;
  fps: number;
  duration: number | null;
  downloadUrl: string | null;
  failureReason: string | null;
  createdAt: string;
  completedAt: string | null;
}

export interface ViralityScores {
  total: number;
  hook_strength: number;
  emotional_impact: number;
  shareability: number;
  story_quality: number;
}

export interface MagicClip {
  id: string;
  title: string;
  status: string;
  duration: number;
  startTime: number;
  endTime: number;
  previewUrl: string | null;
  directUrl: string | null;
  downloadUrl: string | null;
  failureReason: string | null;
  viralityScores: ViralityScores;
  viralityReasons: string[];
  rank: number;
  hookTitle: string | null;
}

export interface Word {
  id: string;
  text: string;
  type: string;
  startTime: number;
  endTime: number;
}

export interface Project extends ProjectSummary {
  language: string;
  transcriptionStatus: string | null;
  directUrl: string | null;
  downloadUrl: string | null;
  videoMetaData: { width: number; height: number; duration: number; fps: number } | null;
  words: Word[] | null;
  exports: Export[];
  magicClips: MagicClip[];
  /** magic clips: the controls it was made with, and what could not be as asked */
  clipCount: number | null;
  topic: string | null;
  aspectRatio: string | null;
  clipsNote: string | null;
}

const SUMMARY = `id title kind status failureReason createdAt updatedAt progress { stage percent clipsDone clipsTotal }`;

export const PROJECTS = gql`
  query ConsoleProjects($first: Int!) {
    projects(first: $first) { edges { node { ${SUMMARY} } } }
  }
`;

export const PROJECT = gql`
  query ConsoleProject($id: ID!) {
    project(id: $id) {
      ${SUMMARY}
      language transcriptionStatus directUrl downloadUrl
      videoMetaData { width height duration fps }
      words { id text type startTime endTime }
      exports { id status progress width height fps duration downloadUrl failureReason createdAt completedAt }
      clipCount topic aspectRatio clipsNote
      magicClips {
        id title status duration startTime endTime previewUrl directUrl downloadUrl failureReason
        viralityScores { total hook_strength emotional_impact shareability story_quality }
        viralityReasons rank hookTitle
      }
    }
  }
`;

export const PROJECT_UPDATES = gql`
  subscription ConsoleProjectUpdates($projectId: ID!) {
    projectUpdates(projectId: $projectId) { projectId status stage percent clipsDone clipsTotal failureReason at }
  }
`;

export const CAPTIONS = gql`
  query ConsoleCaptions($id: ID!, $format: CaptionFormat!) {
    project(id: $id) { id captions(format: $format) }
  }
`;

export const EXPORT_PROJECT = gql`
  mutation ConsoleExport($id: ID!) {
    exportProject(id: $id) { exportId projectId status message }
  }
`;

export const LANGUAGES = gql`
  query ConsoleLanguages { languages { code name } }
`;

export const UPLOAD_PROJECT = `mutation ConsoleUploadProject($file: Upload!, $input: UploadProjectInput!) { uploadProject(file: $file, input: $input) { id } }`;
export const UPLOAD_MAGIC_CLIPS = `mutation ConsoleUploadMagicClips($file: Upload!, $input: UploadMagicClipsInput!) { uploadMagicClips(file: $file, input: $input) { id } }`;

export const CREATE_PROJECT = gql`
  mutation ConsoleCreateProject($input: CreateProjectInput!) { createProject(input: $input) { ${SUMMARY} } }
`;

export const CREATE_MAGIC_CLIPS = gql`
  mutation ConsoleCreateMagicClips($input: CreateMagicClipsInput!) { createMagicClips(input: $input) { ${SUMMARY} } }
`;

export interface PostStatus {
  platform: string;
  publishStatus: string;
  error: string | null;
  platformPostUrl: string | null;
}

export interface Publication {
  id: string;
  status: string;
  scheduled: boolean;
  publishedAt: string;
  platforms: string[];
  project: { id: string; title: string };
  posts: (PostStatus & { publishedAt: string | null; analytics: { views: number; likes: number; comments: number; shares: number } | null })[];
  totals: { views: number; engagement: number; followersGained: number };
}

export const PUBLICATIONS = gql`
  query ConsolePublications($limit: Int!) {
    publications(limit: $limit) {
      data {
        id status scheduled publishedAt platforms
        project { id title }
        posts { platform publishStatus error platformPostUrl publishedAt analytics { views likes comments shares } }
        totals { views engagement followersGained }
      }
    }
  }
`;

export interface PublicationUpdate {
  publicationId: string;
  status: string;
  at: string;
  posts: PostStatus[];
}

export const PUBLICATION_UPDATES = gql`
  subscription ConsolePublicationUpdates($publicationId: ID!) {
    publicationUpdates(publicationId: $publicationId) { publicationId status at posts { platform publishStatus error platformPostUrl } }
  }
`;

export interface Comparison {
  current: number;
  prior: number;
}

export interface PublishingStats {
  metric: string;
  period: { from: string; to: string };
  summary: { views: Comparison; engagement: Comparison; followers: Comparison };
  timeseries: { date: string; total: number; breakdown: { platform: string; value: number }[] }[];
}

export const PUBLISHING_STATS = gql`
  query ConsoleStats($metric: String!, $from: String!) {
    publishingStats(metric: $metric, from: $from) {
      metric
      period { from to }
      summary { views { current prior } engagement { current prior } followers { current prior } }
      timeseries { date total breakdown { platform value } }
    }
  }
`;

export const WHOAMI = `query ConsoleSignIn { apiKeys { prefix revokedAt } }`;
