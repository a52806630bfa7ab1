// The operations of the library, presets and account pages, with the shapes of
// their answers (the schema is schema/schema.graphql).
import { gql } from 'urql';

export interface PageInfo {
  endCursor: string | null;
  hasNextPage: boolean;
}

// ---------------------------------------------------------------------------
// library

export type MediaType = 'VIDEO' | 'AUDIO' | 'IMAGE' | 'FONT' | 'LUT';

export interface UserMedia {
  id: string;
  type: MediaType;
  status: 'pending' | 'ready' | 'failed';
  fileName: string;
  url: string;
  metadata: Record<string, unknown>;
  failureReason: string | null;
  createdAt: string;
}

const MEDIA = 'id type status fileName url metadata failureReason createdAt';

export const USER_MEDIA = gql`
  query ConsoleLibrary($first: Int!, $after: String, $type: MediaType) {
    userMedia(first: $first, after: $after, type: $type) { edges { node { ${MEDIA} } } pageInfo { endCursor hasNextPage } }
  }
`;

export const UPLOAD_USER_MEDIA = `mutation ConsoleUploadMedia($file: Upload!) { uploadUserMedia(file: $file) { userMediaId } }`;

export const CREATE_USER_MEDIA = gql`
  mutation ConsoleAddMedia($url: String!) { createUserMedia(url: $url) { userMediaId } }
`;

export const DELETE_USER_MEDIA = gql`
  mutation ConsoleDeleteMedia($id: ID!) { deleteUserMedia(id: $id) { id } }
`;

// ---------------------------------------------------------------------------
// presets

export const MEDIA_KINDS = ['captions', 'hookTitle', 'logo', 'colorFilter', 'music'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

export interface Preset {
  id: string;
  name: string;
  description: string | null;
  captions: boolean;
  hookTitle: boolean;
  logo: boolean;
  colorFilter: boolean;
  music: boolean;
  musicVolume: number | null;
  magicZooms: boolean;
  magicBrolls: boolean;
  cleanAudio: boolean;
  configured: Record<MediaKind, boolean>;
  savedMedia: Record<MediaKind, Record<string, unknown> | null>;
  sourceProjectId: string | null;
  createdAt: string;
  updatedAt: string;
}

const PRESET = `id name description captions hookTitle logo colorFilter music musicVolume magicZooms magicBrolls cleanAudio
  configured { captions hookTitle logo colorFilter music } savedMedia sourceProjectId createdAt updatedAt`;

export const PRESETS = gql`
  query ConsolePresets($first: Int!) { presets(first: $first) { edges { node { ${PRESET} } } } }
`;

export const PRESET_NAMES = gql`
  query ConsolePresetNames { presets(first: 100) { edges { node { id name } } } }
`;

export const PROJECT_NAMES = gql`
  query ConsoleProjectNames { projects(first: 100) { edges { node { id title } } } }
`;

export const CREATE_PRESET = gql`
  mutation ConsoleCreatePreset($projectId: ID!, $name: String!, $description: String) {
    createPresetFromProject(projectId: $projectId, name: $name, description: $description) { ${PRESET} }
  }
`;

export const UPDATE_PRESET = gql`
  mutation ConsoleUpdatePreset($id: ID!, $input: UpdatePresetInput!) { updatePreset(id: $id, input: $input) { ${PRESET} } }
`;

export const SAVE_PRESET_MEDIA = gql`
  mutation ConsoleSavePresetMedia($presetId: ID!, $input: SavePresetMediaInput!) { savePresetMedia(presetId: $presetId, input: $input) { ${PRESET} } }
`;

/** What the saved-media forms choose from. */
export interface MediaChoices {
  captionTemplates: { name: string }[];
  hookTitleTemplates: { name: string }[];
  userThemes: { id: string; name: string }[];
  music: { id: string; name: string }[];
  userMedia: { edges: { node: Pick<UserMedia, 'id' | 'type' | 'status' | 'fileName'> }[] };
}

export const MEDIA_CHOICES = gql`
  query ConsoleMediaChoices {
    captionTemplates { name }
    hookTitleTemplates { name }
    userThemes { id name }
    music { id name }
    userMedia(first: 100) { edges { node { id type status fileName } } }
  }
`;

// ---------------------------------------------------------------------------
// account

export interface Account {
  email: string;
  createdAt: string;
  balances: { apiCredits: number; aiCredits: number | null; aiUnlimited: boolean; clipCredits: number };
  entitlements: { apiPublishing: boolean; clipsSubscription: boolean };
}

export const ACCOUNT = gql`
  query ConsoleAccount {
    account { email createdAt balances { apiCredits aiCredits aiUnlimited clipCredits } entitlements { apiPublishing clipsSubscription } }
  }
`;

export interface LedgerEntry {
  id: string;
  kind: 'api' | 'ai' | 'clip';
  delta: number;
  reason: string;
  subjectId: string | null;
  createdAt: string;
}

export const CREDIT_LEDGER = gql`
  query ConsoleLedger($first: Int!, $after: String) {
    creditLedger(first: $first, after: $after) { edges { node { id kind delta reason subjectId createdAt } } pageInfo { endCursor hasNextPage } }
  }
`;

export interface ApiKey {
  id: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  current: boolean;
}

export const API_KEYS = gql`
  query ConsoleApiKeys { apiKeys { id prefix createdAt lastUsedAt current } }
`;

export const CREATE_API_KEY = gql`
  mutation ConsoleCreateKey { createApiKey { apiKey key { id prefix createdAt lastUsedAt current } } }
`;

export const REVOKE_API_KEY = gql`
  mutation ConsoleRevokeKey($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }
`;

export interface WebhookDelivery {
  id: string;
  event: string;
  subjectId: string | null;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

const DELIVERY = 'id event subjectId url status attempts lastStatusCode lastError nextAttemptAt deliveredAt createdAt';

export const WEBHOOK_DELIVERIES = gql`
  query ConsoleDeliveries($first: Int!, $after: String) {
    webhookDeliveries(first: $first, after: $after) { edges { node { ${DELIVERY} } } pageInfo { endCursor hasNextPage } }
  }
`;

export const REDELIVER_WEBHOOK = gql`
  mutation ConsoleRedeliver($id: ID!) { redeliverWebhook(id: $id) { ${DELIVERY} } }
`;
