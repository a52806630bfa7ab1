// The operations of the project editor, the publish form and the accounts
// page, with the shapes of their answers (the schema is schema/schema.graphql).
import { gql } from 'urql';
import type { PostStatus } from './documents.ts';

export interface EditorWord {
  id?: string;
  text: string;
  type: 'word' | 'silence' | 'punctuation';
  startTime: number;
  endTime: number;
  hidden?: boolean | null;
  color?: string | null;
  emoji?: string | null;
  emphasis?: boolean | null;
}

export interface CaptionStyle {
  fill: string;
  font: { family: string; size: number; weight: number; case: string };
  layout: { positionY: number; linesPerPage: number; wordsPerLine: number };
  outline: { color: string; width: number };
  activeWord: { color: string | null; effect: string };
}

export interface HookTitle {
  text?: string;
  template?: string;
  top?: number;
  size?: number;
}

export interface EditorProject {
  id: string;
  title: string;
  status: string;
  updatedAt: string;
  templateName: string;
  userThemeId: string | null;
  style: Partial<CaptionStyle> | null;
  captionStyle: CaptionStyle;
  hookTitle: HookTitle | null;
  magicZooms: boolean;
  removeSilencePace: string | null;
  removeBadTakes: boolean;
  cleanAudio: boolean;
  items: TimelineItem[] | null;
  music: { userMediaId: string; volume: number; startFromTime?: number; fade?: boolean } | null;
  directUrl: string | null;
  previewUrl: string | null;
  videoMetaData: { width: number; height: number; duration: number; fps: number } | null;
  words: EditorWord[] | null;
}

export interface TimelineItem {
  type: 'user-media';
  userMediaId: string;
  startTime: number;
  endTime: number;
  layout?: string;
}

export const EDITOR_PROJECT = gql`
  query EditorProject($id: ID!) {
    project(id: $id) {
      id title status updatedAt templateName userThemeId style hookTitle
      magicZooms removeSilencePace removeBadTakes cleanAudio items music directUrl previewUrl
      captionStyle {
        fill
        font { family size weight case }
        layout { positionY linesPerPage wordsPerLine }
        outline { color width }
        activeWord { color effect }
      }
      videoMetaData { width height duration fps }
      words { id text type startTime endTime hidden color emoji emphasis }
    }
  }
`;

export interface Template {
  name: string;
  description: string;
  previewUrl: string;
}

export interface LibraryEntry {
  id: string;
  fileName: string;
  type: 'AUDIO' | 'VIDEO' | 'IMAGE' | 'FONT' | 'LUT';
  status: string;
}

export const EDITOR_CATALOG = gql`
  query EditorCatalog {
    captionTemplates { name description previewUrl }
    hookTitleTemplates { name description previewUrl }
    music { id name duration }
    userMedia(first: 100) { edges { node { id fileName type status } } }
    userThemes { id name basedOn }
  }
`;

export interface UserTheme {
  id: string;
  name: string;
  basedOn: string | null;
}

export const CREATE_THEME = gql`
  mutation EditorCreateTheme($input: UserThemeInput!) {
    createUserTheme(input: $input) { id name basedOn }
  }
`;

export const UPDATE_PROJECT = gql`
  mutation EditorUpdate($id: ID!, $input: UpdateProjectInput!) {
    updateProject(id: $id, input: $input) { id status message }
  }
`;

export const EXPORT_WITH = gql`
  mutation EditorExport($id: ID!, $input: ExportProjectInput) {
    exportProject(id: $id, input: $input) { exportId projectId status message }
  }
`;

export const DELETE_PROJECT = gql`
  mutation EditorDelete($id: ID!) { deleteProject(id: $id) { id } }
`;

export interface Account {
  id: string;
  platform: string;
  handle: string | null;
  status: 'connected' | 'disconnected';
  statusReason: string | null;
  connector: string;
  isPrivate: boolean;
  followers: number;
  connectedAt: string;
}

export interface Profile {
  id: string;
  name: string;
  isPrimary: boolean;
  accounts: Account[];
}

export interface PlatformAvailability {
  key: string;
  kind: string;
  available: boolean;
  reason: string | null;
}

export const PROFILES = gql`
  query ConsoleProfiles {
    profiles { id name isPrimary accounts { id platform handle status statusReason connector isPrivate followers connectedAt } }
    platforms { key kind available reason }
  }
`;

export const CONNECT_ACCOUNT = gql`
  mutation ConsoleConnect($profileId: ID!, $platform: PlatformKey!, $returnUrl: String) {
    connectAccount(profileId: $profileId, platform: $platform, returnUrl: $returnUrl) { authorizationUrl }
  }
`;

export const DISCONNECT_ACCOUNT = gql`
  mutation ConsoleDisconnect($profileId: ID!, $platform: PlatformKey!) {
    disconnectAccount(profileId: $profileId, platform: $platform) { id status }
  }
`;

export const CREATE_PROFILE = gql`
  mutation ConsoleCreateProfile($input: CreateProfileInput!) { createProfile(input: $input) { id } }
`;

export const PUBLISH_PROJECT = gql`
  mutation ConsolePublish($projectId: ID!, $input: PublishInput!) {
    publishProject(projectId: $projectId, input: $input) { id status }
  }
`;

export const CANCEL_PUBLICATION = gql`
  mutation ConsoleCancelPublication($id: ID!) { cancelPublication(id: $id) { id refundedCredits } }
`;

export interface PublicationDetail {
  id: string;
  status: string;
  scheduled: boolean;
  publishedAt: string;
  platforms: string[];
  project: { id: string; title: string };
  posts: (PostStatus & {
    publishedAt: string | null;
    syncStatus: string;
    analytics: { views: number; likes: number; comments: number; shares: number; reach: number; engagementRate: number } | null;
  })[];
  totals: { views: number; engagement: number; followersGained: number };
}

export const PUBLICATION = gql`
  query ConsolePublication($id: ID!) {
    publication(id: $id) {
      id status scheduled publishedAt platforms
      project { id title }
      posts { platform publishStatus error platformPostUrl publishedAt syncStatus analytics { views likes comments shares reach engagementRate } }
      totals { views engagement followersGained }
    }
  }
`;
