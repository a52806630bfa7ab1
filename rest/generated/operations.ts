/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** connected: posts go out; disconnected: publishing to it is refused until it is connected again */
export type AccountStatus =
  | 'connected'
  | 'disconnected';

export type AiEditTemplate =
  | 'ai_template_a'
  | 'ai_template_b'
  | 'ai_template_c';

export type CaptionActiveWordInput = {
  /** the spoken word’s colour (the box’s for box): #RRGGBB or #RRGGBBAA */
  color?: string | null | undefined;
  /** color, box, underline, pop, none */
  effect?: string | null | undefined;
  /** percent size of a popped word, 100-180 */
  scale?: number | null | undefined;
};

/** a band behind each line; null for none */
export type CaptionBoxInput = {
  /** band colour: #RRGGBB or #RRGGBBAA */
  color?: string | null | undefined;
  /** pixels, 0-60 */
  padding?: number | null | undefined;
};

export type CaptionEmphasisInput = {
  /** emphasised words’ colour: #RRGGBB or #RRGGBBAA */
  color?: string | null | undefined;
  /** which words are emphasised; empty: none */
  rules?: Array<string> | null | undefined;
  /** percent of the font size, 100-180 */
  scale?: number | null | undefined;
  /** words of the listed rule, at most 50 */
  words?: Array<string> | null | undefined;
};

export type CaptionEntranceInput = {
  /** milliseconds, 0-1000 */
  duration?: number | null | undefined;
  /** none, fade, pop, slideUp, reveal, karaoke */
  effect?: string | null | undefined;
};

export type CaptionFontInput = {
  /** asSpoken, upper, lower */
  case?: string | null | undefined;
  /** Lato, Open Sans, Roboto, DejaVu Sans, DejaVu Sans Mono, Bebas Neue, League Spartan, Dancing Script, Lobster Two, Comic Neue, or the family of a FONT in your library */
  family?: string | null | undefined;
  /** line height in pixels of a 1080-wide frame, 16-240 */
  size?: number | null | undefined;
  /** CSS weight, 100-900 */
  weight?: number | null | undefined;
};

export type CaptionFormat =
  | 'srt'
  | 'vtt';

export type CaptionLayoutInput = {
  /** lines per page, 1-3 */
  linesPerPage?: number | null | undefined;
  /** centre of the block, percent from the top, 0-80 */
  positionY?: number | null | undefined;
  /** words per line, 1-12 */
  wordsPerLine?: number | null | undefined;
};

export type CaptionOutlineInput = {
  /** outline colour: #RRGGBB or #RRGGBBAA */
  color?: string | null | undefined;
  /** blur of the outline, 0-20 */
  glow?: number | null | undefined;
  /** pixels, 0-30 */
  width?: number | null | undefined;
};

export type CaptionShadowInput = {
  /** shadow colour: #RRGGBB or #RRGGBBAA */
  color?: string | null | undefined;
  /** pixels, 0-20 */
  depth?: number | null | undefined;
};

/** your changes to the caption template’s or theme’s style: any fields of a caption style (GET /v1/templates/{name} shows a whole one); on update, laid over the project’s own, null clears them */
export type CaptionStyleInput = {
  activeWord?: CaptionActiveWordInput | null | undefined;
  /** every second line’s colour; null: as fill: #RRGGBB or #RRGGBBAA */
  alternateFill?: string | null | undefined;
  /** a band behind each line; null for none */
  box?: CaptionBoxInput | null | undefined;
  /** off, or keywords: an emoji after emphasised keywords */
  emoji?: string | null | undefined;
  emphasis?: CaptionEmphasisInput | null | undefined;
  entrance?: CaptionEntranceInput | null | undefined;
  /** the words’ colour: #RRGGBB or #RRGGBBAA */
  fill?: string | null | undefined;
  font?: CaptionFontInput | null | undefined;
  layout?: CaptionLayoutInput | null | undefined;
  outline?: CaptionOutlineInput | null | undefined;
  shadow?: CaptionShadowInput | null | undefined;
};

/** the part of the source clips come from; only that part is transcribed and analysed */
export type ClipRangeInput = {
  /** seconds into the source where clips must have ended */
  endTime: number;
  /** seconds into the source where clips may start */
  startTime: number;
};

export type CommercialContentType =
  | 'brand_content'
  | 'brand_organic';

/** The fields of POST /v1/projects/magic-clips */
export type CreateMagicClipsInput = {
  /** the clips' shape: 9:16, 1:1, 4:5, 16:9; 9:16 when left out */
  aspectRatio?: string | null | undefined;
  /** how many clips, 1-20: met when the source has that many distinct moments, else the project says why not; left out, one per 3 minutes of source (at most 10) */
  clipCount?: number | null | undefined;
  /** keep the speaker's face in the vertical frame; true when left out */
  faceTracking?: boolean | null | undefined;
  /** true: each clip gets a hook title written from its own words; or {template, top, size} for their look; false or left out: none */
  hookTitle?: unknown;
  /** a language code of GET /v1/languages */
  language: string;
  /** the longest clip in seconds, 15-300; 60 when left out */
  maxClipLength?: number | null | undefined;
  /** the shortest clip in seconds, 15-300; 15 when left out */
  minClipLength?: number | null | undefined;
  /** the part of the source clips come from; only that part is transcribed and analysed */
  range?: ClipRangeInput | null | undefined;
  /** two people on screen, when the picture follows faces: auto (the one speaking, both stacked where both speak or nothing tells who), follow (always the one speaking) or split (both stacked); auto when left out */
  speakerLayout?: string | null | undefined;
  /** your changes to the caption template’s or theme’s style: any fields of a caption style (GET /v1/templates/{name} shows a whole one); on update, laid over the project’s own, null clears them */
  style?: CaptionStyleInput | null | undefined;
  /** a caption template of GET /v1/templates; not with userThemeId */
  templateName?: string | null | undefined;
  /** 1-100 characters */
  title: string;
  /** what the clips should be about, 1-200 characters: clips about it rank first */
  topic?: string | null | undefined;
  /** one of your caption themes; not with templateName */
  userThemeId?: string | number | null | undefined;
  /** the page or file of the long video on a video platform (a host of VIDEO_PLATFORM_HOSTS) */
  videoshareUrl: string;
  /** an HTTPS URL told when the clips are made or could not be */
  webhookUrl?: string | null | undefined;
};

/** The body of POST /v1/profiles */
export type CreateProfileInput = {
  /** 1-100 characters */
  name: string;
  /** publish through it when no profileId is given; the first profile is primary whatever is sent */
  primary?: boolean | null | undefined;
};

/** The fields of POST /v1/projects */
export type CreateProjectInput = {
  /** a bundle of settings; only title, language, the source, webhookUrl and dictionary may accompany it */
  aiEditTemplate?: AiEditTemplate | null | undefined;
  /** export once transcribed; true when left out */
  autoRender?: boolean | null | undefined;
  /** horizontal caption position, percent, 0-100 */
  captionPositionX?: number | null | undefined;
  /** vertical caption position, percent from the top, 0-80 */
  captionPositionY?: number | null | undefined;
  /** denoise and level the voice */
  cleanAudio?: boolean | null | undefined;
  /** Words and names the transcription should know: at most 100, each 1-50 characters */
  dictionary?: Array<string> | null | undefined;
  /** no burnt-in captions */
  disableCaptions?: boolean | null | undefined;
  /** true: the default AI hook title; false: none; or an object {text, template, top, size} (each optional) */
  hookTitle?: unknown;
  /** Media over the video, none overlapping: {type: "user-media", userMediaId, startTime, endTime, layout?} for a VIDEO or IMAGE file of your library, or {type: "ai-broll", prompt (1-2500 characters), startTime, endTime (at most 12 s later), layout?} (3 AI credits each); layout is one of cover, contain, rounded, square, split-50-50, split-35-65, split-50-50-bordered, split-35-65-bordered, pip-top-right, pip-bottom-right (images: cover, contain, rounded, square) */
  items?: unknown;
  /** a language code of GET /v1/languages */
  language: string;
  /** automatic B-roll from your library or the generator */
  magicBrolls?: boolean | null | undefined;
  /** share of automatic B-roll, 0-100; 50 when left out */
  magicBrollsPercentage?: number | null | undefined;
  /** punch-in zooms on stressed words */
  magicZooms?: boolean | null | undefined;
  /** Background music */
  music?: ProjectMusicInput | null | undefined;
  /** one of your presets, applied in place of the settings it holds */
  presetId?: string | number | null | undefined;
  /** how a picture of another shape fills the frame: face (a crop that follows the speaker), center (a centred crop) or fill (the whole picture over a blurred copy); left out, center or fill by how far the shapes differ */
  reframe?: string | null | undefined;
  /** keep only the last take of a repeated phrase */
  removeBadTakes?: boolean | null | undefined;
  /** cut pauses: natural, fast, extra-fast */
  removeSilencePace?: string | null | undefined;
  /** two people on screen, when the picture follows faces: auto (the one speaking, both stacked where both speak or nothing tells who), follow (always the one speaking) or split (both stacked); auto when left out */
  speakerLayout?: string | null | undefined;
  /** your changes to the caption template’s or theme’s style: any fields of a caption style (GET /v1/templates/{name} shows a whole one); on update, laid over the project’s own, null clears them */
  style?: CaptionStyleInput | null | undefined;
  /** a caption template of GET /v1/templates; not with userThemeId */
  templateName?: string | null | undefined;
  /** 1-100 characters */
  title: string;
  /** one of your caption themes; not with templateName */
  userThemeId?: string | number | null | undefined;
  /** a public mp4 or mov file, at most 2 GB and 2 hours */
  videoUrl: string;
  /** an HTTPS URL told when the project completes or fails */
  webhookUrl?: string | null | undefined;
};

/** api: publishing posts; ai: AI edits and B-roll; clip: magic clips */
export type CreditKind =
  | 'ai'
  | 'api'
  | 'clip';

/** The fields of POST /v1/projects/{id}/export, all optional */
export type ExportProjectInput = {
  /** 1-60; the source frame rate when left out */
  fps?: number | null | undefined;
  /** 100-4000; the source height when left out */
  height?: number | null | undefined;
  /** told when the export completes or fails */
  webhookUrl?: string | null | undefined;
  /** 100-4000; the source width when left out */
  width?: number | null | undefined;
};

/** pending while the file is fetched and probed; ready to use; failed with a reason */
export type MediaStatus =
  | 'failed'
  | 'pending'
  | 'ready';

/** VIDEO, AUDIO and IMAGE as SPEC.md has them; FONT (TTF, OTF: a caption style names it by family) and LUT (.cube 3D: a colour look) are extensions */
export type MediaType =
  | 'AUDIO'
  | 'FONT'
  | 'IMAGE'
  | 'LUT'
  | 'VIDEO';

/** A post of up to 280 characters */
export type MicroblogPostInput = {
  /** 1-280 characters */
  content: string;
};

export type PhotoshareFormat =
  | 'reel'
  | 'story';

/** A reel or a story */
export type PhotosharePostInput = {
  /** the caption, 1-2200 characters; required for a reel */
  content?: string | null | undefined;
  /** posted as the first comment, 1-2200 characters */
  firstComment?: string | null | undefined;
  /** reel or story */
  format: PhotoshareFormat;
};

/** The six social platforms under their neutral keys */
export type PlatformKey =
  | 'microblog'
  | 'photoshare'
  | 'prosocial'
  | 'shortvideo'
  | 'socialnet'
  | 'videoshare';

/** edit: a captioned edit of one video; magic_clips: scored clips cut from a long video */
export type ProjectKind =
  | 'edit'
  | 'magic_clips';

/** Background music */
export type ProjectMusicInput = {
  /** fade in and out; true when left out */
  fade?: boolean | null | undefined;
  /** seconds into the track; 0 when left out */
  startFromTime?: number | null | undefined;
  /** an AUDIO file of your library or a music track (GET /v1/music) */
  userMediaId: string | number;
  /** 1-100 */
  volume: number;
};

export type ProjectStatus =
  | 'completed'
  | 'exporting'
  | 'failed'
  | 'processing'
  | 'transcribing'
  | 'uploading';

/** A post of up to 3000 characters */
export type ProsocialPostInput = {
  /** 1-3000 characters */
  content: string;
};

/** The body of POST /v1/projects/{id}/publish */
export type PublishInput = {
  /** one member per platform to post to, at least one */
  platforms: PublishPlatformsInput;
  /** the profile whose accounts post; your primary profile when left out */
  profileId?: string | number | null | undefined;
  /** an ISO 8601 date-time in the future; left out, the post goes out at once */
  scheduledFor?: string | null | undefined;
};

/** one member per platform to post to, at least one */
export type PublishPlatformsInput = {
  /** A post of up to 280 characters */
  microblog?: MicroblogPostInput | null | undefined;
  /** A reel or a story */
  photoshare?: PhotosharePostInput | null | undefined;
  /** A post of up to 3000 characters */
  prosocial?: ProsocialPostInput | null | undefined;
  /** A short-form video post */
  shortvideo?: ShortvideoPostInput | null | undefined;
  /** A post of up to 5000 characters */
  socialnet?: SocialnetPostInput | null | undefined;
  /** A long-form video post */
  videoshare?: VideosharePostInput | null | undefined;
};

export type PublishStatus =
  | 'failed'
  | 'processing'
  | 'published'
  | 'scheduled';

/** A short-form video post */
export type ShortvideoPostInput = {
  /** true when left out */
  allowComment?: boolean | null | undefined;
  /** true when left out */
  allowDuet?: boolean | null | undefined;
  /** true when left out */
  allowStitch?: boolean | null | undefined;
  /** brand_organic (your own brand) or brand_content (paid partnership); leave out when not commercial */
  commercialContentType?: CommercialContentType | null | undefined;
  /** the caption, 1-2200 characters */
  content: string;
  /** public, friends, followers, private; public when left out (a private account cannot post public) */
  privacyLevel?: ShortvideoPrivacyLevel | null | undefined;
  /** labels the video as made with AI */
  videoMadeWithAi?: boolean | null | undefined;
};

export type ShortvideoPrivacyLevel =
  | 'followers'
  | 'friends'
  | 'private'
  | 'public';

/** A post of up to 5000 characters */
export type SocialnetPostInput = {
  /** 1-5000 characters */
  content: string;
};

export type SyncStatus =
  | 'failed'
  | 'pending'
  | 'synced';

/** The fields to change, at least one, as in PUT /v1/presets/{id} */
export type UpdatePresetInput = {
  /** apply the saved caption theme; true only when configured says it is saved */
  captions?: boolean | null | undefined;
  cleanAudio?: boolean | null | undefined;
  /** apply the saved colour filter; true only when configured says it is saved */
  colorFilter?: boolean | null | undefined;
  /** up to 500 characters; null clears it */
  description?: string | null | undefined;
  /** stored as sent; the service does not correct gaze, so no render changes with it */
  eyeContactCorrection?: boolean | null | undefined;
  /** apply the saved hook title; true only when configured says it is saved */
  hookTitle?: boolean | null | undefined;
  /** apply the saved logo; true only when configured says it is saved */
  logo?: boolean | null | undefined;
  /** automatic AI B-roll */
  magicBrolls?: boolean | null | undefined;
  /** share of automatic B-roll, 0-100 */
  magicBrollsPercentage?: number | null | undefined;
  /** transition effects around automatic B-roll */
  magicBrollsTransitions?: boolean | null | undefined;
  magicZooms?: boolean | null | undefined;
  /** apply the saved background music; true only when configured says it is saved */
  music?: boolean | null | undefined;
  /** 1-100; only when configured.music */
  musicVolume?: number | null | undefined;
  /** 1-100 characters */
  name?: string | null | undefined;
  /** 0-100; null switches transition sounds off */
  transitionSoundVolume?: number | null | undefined;
};

/** The body of PUT /v1/profiles/{id}: some fields, at least one */
export type UpdateProfileInput = {
  /** 1-100 characters */
  name?: string | null | undefined;
  /** true makes it the primary profile (the former one stops being primary); false is refused: make another primary instead */
  primary?: boolean | null | undefined;
};

/** The fields of PUT /v1/projects/{id}, all optional, at least one */
export type UpdateProjectInput = {
  /** horizontal caption position, percent, 0-100 */
  captionPositionX?: number | null | undefined;
  /** vertical caption position, percent from the top, 0-80 */
  captionPositionY?: number | null | undefined;
  /** denoise and level the voice */
  cleanAudio?: boolean | null | undefined;
  /** no burnt-in captions */
  disableCaptions?: boolean | null | undefined;
  /** true: the default AI hook title; false: none; or an object {text, template, top, size} (each optional) */
  hookTitle?: unknown;
  /** At least one item. Media over the video, none overlapping: {type: "user-media", userMediaId, startTime, endTime, layout?} for a VIDEO or IMAGE file of your library, or {type: "ai-broll", prompt (1-2500 characters), startTime, endTime (at most 12 s later), layout?} (3 AI credits each); layout is one of cover, contain, rounded, square, split-50-50, split-35-65, split-50-50-bordered, split-35-65-bordered, pip-top-right, pip-bottom-right (images: cover, contain, rounded, square) */
  items?: unknown;
  /** punch-in zooms on stressed words */
  magicZooms?: boolean | null | undefined;
  /** Background music */
  music?: ProjectMusicInput | null | undefined;
  /** face, center or fill (see creation); null: back to center or fill by shape */
  reframe?: string | null | undefined;
  /** keep only the last take of a repeated phrase */
  removeBadTakes?: boolean | null | undefined;
  /** cut pauses: natural, fast, extra-fast */
  removeSilencePace?: string | null | undefined;
  /** auto, follow or split (see creation); null: back to auto */
  speakerLayout?: string | null | undefined;
  /** your changes to the caption template’s or theme’s style: any fields of a caption style (GET /v1/templates/{name} shows a whole one); on update, laid over the project’s own, null clears them */
  style?: CaptionStyleInput | null | undefined;
  /** a caption template of GET /v1/templates, in place of the project’s template or theme; not with userThemeId */
  templateName?: string | null | undefined;
  /** one of your caption themes, in place of the project’s template or theme; not with templateName */
  userThemeId?: string | number | null | undefined;
  /** The whole transcript, in time order: words of the current transcript keep their id, new ones have none */
  words?: Array<WordInput> | null | undefined;
};

/** The text fields of POST /v1/projects/magic-clips/upload */
export type UploadMagicClipsInput = {
  /** the clips' shape: 9:16, 1:1, 4:5, 16:9; 9:16 when left out */
  aspectRatio?: string | null | undefined;
  /** how many clips, 1-20: met when the source has that many distinct moments, else the project says why not; left out, one per 3 minutes of source (at most 10) */
  clipCount?: number | null | undefined;
  /** keep the speaker's face in the vertical frame; true when left out */
  faceTracking?: boolean | null | undefined;
  /** true: each clip gets a hook title written from its own words; or {template, top, size} for their look; false or left out: none */
  hookTitle?: unknown;
  /** a language code of GET /v1/languages */
  language: string;
  /** the longest clip in seconds, 15-300; 60 when left out */
  maxClipLength?: number | null | undefined;
  /** the shortest clip in seconds, 15-300; 15 when left out */
  minClipLength?: number | null | undefined;
  /** the part of the source clips come from; only that part is transcribed and analysed */
  range?: ClipRangeInput | null | undefined;
  /** two people on screen, when the picture follows faces: auto (the one speaking, both stacked where both speak or nothing tells who), follow (always the one speaking) or split (both stacked); auto when left out */
  speakerLayout?: string | null | undefined;
  /** your changes to the caption template’s or theme’s style: any fields of a caption style (GET /v1/templates/{name} shows a whole one); on update, laid over the project’s own, null clears them */
  style?: CaptionStyleInput | null | undefined;
  /** a caption template of GET /v1/templates; not with userThemeId */
  templateName?: string | null | undefined;
  /** 1-100 characters */
  title: string;
  /** what the clips should be about, 1-200 characters: clips about it rank first */
  topic?: string | null | undefined;
  /** one of your caption themes; not with templateName */
  userThemeId?: string | number | null | undefined;
  /** an HTTPS URL told when the clips are made or could not be */
  webhookUrl?: string | null | undefined;
};

/** The text fields of POST /v1/projects/upload */
export type UploadProjectInput = {
  /** a bundle of settings; only title, language, the source, webhookUrl and dictionary may accompany it */
  aiEditTemplate?: AiEditTemplate | null | undefined;
  /** horizontal caption position, percent, 0-100 */
  captionPositionX?: number | null | undefined;
  /** vertical caption position, percent from the top, 0-80 */
  captionPositionY?: number | null | undefined;
  /** denoise and level the voice */
  cleanAudio?: boolean | null | undefined;
  /** Words and names the transcription should know: at most 100, each 1-50 characters */
  dictionary?: Array<string> | null | undefined;
  /** no burnt-in captions */
  disableCaptions?: boolean | null | undefined;
  /** true: the default AI hook title; false: none; or an object {text, template, top, size} (each optional) */
  hookTitle?: unknown;
  /** Media over the video, none overlapping: {type: "user-media", userMediaId, startTime, endTime, layout?} for a VIDEO or IMAGE file of your library, or {type: "ai-broll", prompt (1-2500 characters), startTime, endTime (at most 12 s later), layout?} (3 AI credits each); layout is one of cover, contain, rounded, square, split-50-50, split-35-65, split-50-50-bordered, split-35-65-bordered, pip-top-right, pip-bottom-right (images: cover, contain, rounded, square) */
  items?: unknown;
  /** a language code of GET /v1/languages */
  language: string;
  /** automatic B-roll from your library or the generator */
  magicBrolls?: boolean | null | undefined;
  /** share of automatic B-roll, 0-100; 50 when left out */
  magicBrollsPercentage?: number | null | undefined;
  /** punch-in zooms on stressed words */
  magicZooms?: boolean | null | undefined;
  /** Background music */
  music?: ProjectMusicInput | null | undefined;
  /** one of your presets, applied in place of the settings it holds */
  presetId?: string | number | null | undefined;
  /** how a picture of another shape fills the frame: face (a crop that follows the speaker), center (a centred crop) or fill (the whole picture over a blurred copy); left out, center or fill by how far the shapes differ */
  reframe?: string | null | undefined;
  /** keep only the last take of a repeated phrase */
  removeBadTakes?: boolean | null | undefined;
  /** cut pauses: natural, fast, extra-fast */
  removeSilencePace?: string | null | undefined;
  /** two people on screen, when the picture follows faces: auto (the one speaking, both stacked where both speak or nothing tells who), follow (always the one speaking) or split (both stacked); auto when left out */
  speakerLayout?: string | null | undefined;
  /** your changes to the caption template’s or theme’s style: any fields of a caption style (GET /v1/templates/{name} shows a whole one); on update, laid over the project’s own, null clears them */
  style?: CaptionStyleInput | null | undefined;
  /** a caption template of GET /v1/templates; not with userThemeId */
  templateName?: string | null | undefined;
  /** 1-100 characters */
  title: string;
  /** one of your caption themes; not with templateName */
  userThemeId?: string | number | null | undefined;
  /** an HTTPS URL told when the project completes or fails */
  webhookUrl?: string | null | undefined;
};

/** A caption theme: a name, the template it starts from and the style it changes; on creation only `name` is required */
export type UserThemeInput = {
  /** the caption template the theme starts from (classic when left out) */
  basedOn?: string | null | undefined;
  /** 1-100 characters */
  name?: string | null | undefined;
  /** what the theme changes of its template: any fields of a caption style; on update, laid over the theme’s own */
  style?: CaptionStyleInput | null | undefined;
};

/** A long-form video post */
export type VideosharePostInput = {
  /** 1-5000 characters */
  description: string;
  /** the pinned first comment */
  firstComment?: string | null | undefined;
  /** at most 50 tags, each 1-100 characters */
  tags?: Array<string> | null | undefined;
  /** 1-100 characters */
  title: string;
};

/** A transcript element */
export type WordInput = {
  /** this word’s caption colour; null: the style’s (kept across edits when left out) */
  color?: string | null | undefined;
  /** an emoji drawn with this word’s caption page; null: none */
  emoji?: string | null | undefined;
  /** emphasise this word (true) or never (false), over the style’s rules; null: the rules decide */
  emphasis?: boolean | null | undefined;
  endTime: number;
  /** leave this word out of the captions (it is still heard) */
  hidden?: boolean | null | undefined;
  /** the id of a word of the current transcript; left out for a new word */
  id?: string | number | null | undefined;
  startTime: number;
  /** 1-200 characters; ignored for a silence */
  text?: string | null | undefined;
  type: WordKind;
};

export type WordKind =
  | 'punctuation'
  | 'silence'
  | 'word';

export type AccountQueryVariables = Exact<{ [key: string]: never; }>;


export type AccountQuery = { account: { email: string, createdAt: string, entitlements: { clipsSubscription: boolean, apiPublishing: boolean }, balances: { apiCredits: number, aiCredits: number | null, aiUnlimited: boolean, clipCredits: number } } };

export type CreditLedgerPageQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  kind?: CreditKind | null | undefined;
}>;


export type CreditLedgerPageQuery = { creditLedger: { edges: Array<{ node: { id: string, kind: CreditKind, delta: number, reason: string, subjectId: string | null, createdAt: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ApiKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type ApiKeysQuery = { apiKeys: Array<{ id: string, prefix: string, createdAt: string, lastUsedAt: string | null, current: boolean }> };

export type CreateApiKeyMutationVariables = Exact<{ [key: string]: never; }>;


export type CreateApiKeyMutation = { createApiKey: { apiKey: string, key: { id: string, prefix: string, createdAt: string } } };

export type RevokeApiKeyMutationVariables = Exact<{
  id: string | number;
}>;


export type RevokeApiKeyMutation = { revokeApiKey: { id: string, prefix: string, revokedAt: string | null } };

export type SocialAccountFieldsFragment = { id: string, platform: PlatformKey, handle: string | null, isPrivate: boolean, followers: number, connector: string, status: AccountStatus, statusReason: string | null, connectedAt: string };

export type PlatformsQueryVariables = Exact<{ [key: string]: never; }>;


export type PlatformsQuery = { platforms: Array<{ key: PlatformKey, kind: string, available: boolean, reason: string | null, redirectUri: string, scopes: Array<string> }> };

export type ProfileFieldsFragment = { id: string, name: string, isPrimary: boolean, createdAt: string, accounts: Array<{ id: string, platform: PlatformKey, handle: string | null, isPrivate: boolean, followers: number, connector: string, status: AccountStatus, statusReason: string | null, connectedAt: string }> };

export type ProfilesQueryVariables = Exact<{ [key: string]: never; }>;


export type ProfilesQuery = { profiles: Array<{ id: string, name: string, isPrimary: boolean, createdAt: string, accounts: Array<{ id: string, platform: PlatformKey, handle: string | null, isPrivate: boolean, followers: number, connector: string, status: AccountStatus, statusReason: string | null, connectedAt: string }> }> };

export type CreateProfileMutationVariables = Exact<{
  input: CreateProfileInput;
}>;


export type CreateProfileMutation = { createProfile: { id: string, name: string, isPrimary: boolean, createdAt: string, accounts: Array<{ id: string, platform: PlatformKey, handle: string | null, isPrivate: boolean, followers: number, connector: string, status: AccountStatus, statusReason: string | null, connectedAt: string }> } };

export type UpdateProfileMutationVariables = Exact<{
  id: string | number;
  input: UpdateProfileInput;
}>;


export type UpdateProfileMutation = { updateProfile: { id: string, name: string, isPrimary: boolean, createdAt: string, accounts: Array<{ id: string, platform: PlatformKey, handle: string | null, isPrivate: boolean, followers: number, connector: string, status: AccountStatus, statusReason: string | null, connectedAt: string }> } };

export type DeleteProfileMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteProfileMutation = { deleteProfile: { id: string, name: string } };

export type ConnectAccountMutationVariables = Exact<{
  profileId: string | number;
  platform: PlatformKey;
  returnUrl?: string | null | undefined;
}>;


export type ConnectAccountMutation = { connectAccount: { authorizationUrl: string, redirectUri: string, expiresAt: string } };

export type DisconnectAccountMutationVariables = Exact<{
  profileId: string | number;
  platform: PlatformKey;
}>;


export type DisconnectAccountMutation = { disconnectAccount: { id: string, platform: PlatformKey, handle: string | null, isPrivate: boolean, followers: number, connector: string, status: AccountStatus, statusReason: string | null, connectedAt: string } };

export type LanguagesQueryVariables = Exact<{ [key: string]: never; }>;


export type LanguagesQuery = { languages: Array<{ name: string, code: string }> };

export type CaptionTemplateNamesQueryVariables = Exact<{ [key: string]: never; }>;


export type CaptionTemplateNamesQuery = { captionTemplates: Array<{ name: string }> };

export type HookTitleTemplateNamesQueryVariables = Exact<{ [key: string]: never; }>;


export type HookTitleTemplateNamesQuery = { hookTitleTemplates: Array<{ name: string }> };

export type CaptionStyleFieldsFragment = { fill: string, alternateFill: string | null, emoji: string, font: { family: string, weight: number, size: number, case: string }, outline: { color: string, width: number, glow: number }, shadow: { color: string, depth: number }, box: { color: string, padding: number } | null, layout: { wordsPerLine: number, linesPerPage: number, positionY: number }, activeWord: { effect: string, color: string, scale: number }, entrance: { effect: string, duration: number }, emphasis: { rules: Array<string>, words: Array<string>, color: string, scale: number } };

export type CaptionTemplateQueryVariables = Exact<{
  name: string;
}>;


export type CaptionTemplateQuery = { captionTemplate: { name: string, description: string, previewUrl: string, style: { fill: string, alternateFill: string | null, emoji: string, font: { family: string, weight: number, size: number, case: string }, outline: { color: string, width: number, glow: number }, shadow: { color: string, depth: number }, box: { color: string, padding: number } | null, layout: { wordsPerLine: number, linesPerPage: number, positionY: number }, activeWord: { effect: string, color: string, scale: number }, entrance: { effect: string, duration: number }, emphasis: { rules: Array<string>, words: Array<string>, color: string, scale: number } } } };

export type HookTitleTemplateQueryVariables = Exact<{
  name: string;
}>;


export type HookTitleTemplateQuery = { hookTitleTemplate: { name: string, description: string, font: string, fontWeight: number, uppercase: boolean, textColor: string, backgroundColor: string | null, outlineColor: string, outlineWidth: number, shadow: number, glow: number, duration: number, fade: number, previewUrl: string } };

export type ExportProjectMutationVariables = Exact<{
  id: string | number;
  input?: ExportProjectInput | null | undefined;
}>;


export type ExportProjectMutation = { exportProject: { message: string, projectId: string, status: string } };

export type ProjectCaptionsQueryVariables = Exact<{
  id: string | number;
  format: CaptionFormat;
}>;


export type ProjectCaptionsQuery = { project: { captions: string | null } };

export type CreateUserMediaMutationVariables = Exact<{
  url: string;
}>;


export type CreateUserMediaMutation = { createUserMedia: { userMediaId: string } };

export type UploadUserMediaMutationVariables = Exact<{
  file: unknown;
}>;


export type UploadUserMediaMutation = { uploadUserMedia: { userMediaId: string } };

export type UserMediaPageQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  type?: MediaType | null | undefined;
}>;


export type UserMediaPageQuery = { userMedia: { edges: Array<{ node: { id: string, type: MediaType, status: MediaStatus, fileName: string, url: string, metadata: unknown, failureReason: string | null, createdAt: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type MusicCatalogueQueryVariables = Exact<{ [key: string]: never; }>;


export type MusicCatalogueQuery = { music: Array<{ id: string, name: string, duration: number | null }> };

export type DeleteUserMediaMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteUserMediaMutation = { deleteUserMedia: { id: string, type: MediaType, fileName: string } };

export type MagicClipsRecordFragment = { id: string, title: string, language: string, status: ProjectStatus, webhookUrl: string | null, templateName: string, userThemeId: string | null, minClipLength: number | null, maxClipLength: number | null, faceTracking: boolean | null, clipCount: number | null, topic: string | null, aspectRatio: string | null, speakerLayout: string | null, style: unknown, hookTitle: unknown, clipsNote: string | null, createdAt: string, updatedAt: string, range: { startTime: number, endTime: number } | null };

export type MagicClipRecordFragment = { id: string, title: string, startTime: number, endTime: number, duration: number, projectId: string | null, viralityReasons: Array<string>, rank: number, topicMatch: number | null, hookTitle: string | null, transcript: string, status: string, failureReason: string | null, previewUrl: string | null, downloadUrl: string | null, directUrl: string | null, viralityScores: { total: number, shareability: number, hook_strength: number, story_quality: number, emotional_impact: number } };

export type CreateMagicClipsMutationVariables = Exact<{
  input: CreateMagicClipsInput;
}>;


export type CreateMagicClipsMutation = { createMagicClips: { id: string, title: string, language: string, status: ProjectStatus, webhookUrl: string | null, templateName: string, userThemeId: string | null, minClipLength: number | null, maxClipLength: number | null, faceTracking: boolean | null, clipCount: number | null, topic: string | null, aspectRatio: string | null, speakerLayout: string | null, style: unknown, hookTitle: unknown, clipsNote: string | null, createdAt: string, updatedAt: string, range: { startTime: number, endTime: number } | null } };

export type UploadMagicClipsMutationVariables = Exact<{
  input: UploadMagicClipsInput;
  file: unknown;
}>;


export type UploadMagicClipsMutation = { uploadMagicClips: { id: string, title: string, language: string, status: ProjectStatus, webhookUrl: string | null, templateName: string, userThemeId: string | null, minClipLength: number | null, maxClipLength: number | null, faceTracking: boolean | null, clipCount: number | null, topic: string | null, aspectRatio: string | null, speakerLayout: string | null, style: unknown, hookTitle: unknown, clipsNote: string | null, createdAt: string, updatedAt: string, range: { startTime: number, endTime: number } | null } };

export type ClipScoreCalibrationQueryVariables = Exact<{ [key: string]: never; }>;


export type ClipScoreCalibrationQuery = { clipScoreCalibration: { publishedClips: number, views: { clips: number, rho: number | null }, engagementRate: { clips: number, rho: number | null } } };

export type PresetFieldsFragment = { id: string, name: string, description: string | null, captions: boolean, hookTitle: boolean, magicZooms: boolean, magicBrolls: boolean, magicBrollsPercentage: number, magicBrollsTransitions: boolean, logo: boolean, colorFilter: boolean, cleanAudio: boolean, eyeContactCorrection: boolean, music: boolean, musicVolume: number | null, transitionSoundVolume: number | null, sourceProjectId: string | null, createdAt: string, updatedAt: string, configured: { captions: boolean, hookTitle: boolean, logo: boolean, colorFilter: boolean, music: boolean } };

export type PresetsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type PresetsQuery = { presets: { edges: Array<{ node: { id: string, name: string, description: string | null, captions: boolean, hookTitle: boolean, magicZooms: boolean, magicBrolls: boolean, magicBrollsPercentage: number, magicBrollsTransitions: boolean, logo: boolean, colorFilter: boolean, cleanAudio: boolean, eyeContactCorrection: boolean, music: boolean, musicVolume: number | null, transitionSoundVolume: number | null, sourceProjectId: string | null, createdAt: string, updatedAt: string, configured: { captions: boolean, hookTitle: boolean, logo: boolean, colorFilter: boolean, music: boolean } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type PresetQueryVariables = Exact<{
  id: string | number;
}>;


export type PresetQuery = { preset: { id: string, name: string, description: string | null, captions: boolean, hookTitle: boolean, magicZooms: boolean, magicBrolls: boolean, magicBrollsPercentage: number, magicBrollsTransitions: boolean, logo: boolean, colorFilter: boolean, cleanAudio: boolean, eyeContactCorrection: boolean, music: boolean, musicVolume: number | null, transitionSoundVolume: number | null, sourceProjectId: string | null, createdAt: string, updatedAt: string, configured: { captions: boolean, hookTitle: boolean, logo: boolean, colorFilter: boolean, music: boolean } } };

export type UpdatePresetMutationVariables = Exact<{
  id: string | number;
  input: UpdatePresetInput;
}>;


export type UpdatePresetMutation = { updatePreset: { id: string, name: string, description: string | null, captions: boolean, hookTitle: boolean, magicZooms: boolean, magicBrolls: boolean, magicBrollsPercentage: number, magicBrollsTransitions: boolean, logo: boolean, colorFilter: boolean, cleanAudio: boolean, eyeContactCorrection: boolean, music: boolean, musicVolume: number | null, transitionSoundVolume: number | null, sourceProjectId: string | null, createdAt: string, updatedAt: string, configured: { captions: boolean, hookTitle: boolean, logo: boolean, colorFilter: boolean, music: boolean } } };

export type UpdateProjectMutationVariables = Exact<{
  id: string | number;
  input: UpdateProjectInput;
}>;


export type UpdateProjectMutation = { updateProject: { message: string, id: string, status: ProjectStatus } };

export type PreviewFrameQueryVariables = Exact<{
  id: string | number;
  time: number;
  width?: number | null | undefined;
  height?: number | null | undefined;
  input?: UpdateProjectInput | null | undefined;
}>;


export type PreviewFrameQuery = { previewFrame: { dataUrl: string } };

export type ProjectRecordFragment = { id: string, title: string, language: string, status: ProjectStatus, webhookUrl: string | null, templateName: string, userThemeId: string | null, presetId: string | null, aiEditTemplate: string | null, magicZooms: boolean, magicBrolls: boolean, magicBrollsPercentage: number, removeSilencePace: string | null, removeBadTakes: boolean, cleanAudio: boolean, disableCaptions: boolean, autoRender: boolean, captionPositionY: number | null, captionPositionX: number | null, reframe: string | null, speakerLayout: string | null, style: unknown, hookTitle: unknown, music: unknown, items: unknown, dictionary: Array<string>, createdAt: string, updatedAt: string };

export type CreateProjectMutationVariables = Exact<{
  input: CreateProjectInput;
}>;


export type CreateProjectMutation = { createProject: { id: string, title: string, language: string, status: ProjectStatus, webhookUrl: string | null, templateName: string, userThemeId: string | null, presetId: string | null, aiEditTemplate: string | null, magicZooms: boolean, magicBrolls: boolean, magicBrollsPercentage: number, removeSilencePace: string | null, removeBadTakes: boolean, cleanAudio: boolean, disableCaptions: boolean, autoRender: boolean, captionPositionY: number | null, captionPositionX: number | null, reframe: string | null, speakerLayout: string | null, style: unknown, hookTitle: unknown, music: unknown, items: unknown, dictionary: Array<string>, createdAt: string, updatedAt: string } };

export type UploadProjectMutationVariables = Exact<{
  input: UploadProjectInput;
  file: unknown;
}>;


export type UploadProjectMutation = { uploadProject: { id: string, title: string, language: string, status: ProjectStatus, webhookUrl: string | null, templateName: string, userThemeId: string | null, presetId: string | null, aiEditTemplate: string | null, magicZooms: boolean, magicBrolls: boolean, magicBrollsPercentage: number, removeSilencePace: string | null, removeBadTakes: boolean, cleanAudio: boolean, disableCaptions: boolean, autoRender: boolean, captionPositionY: number | null, captionPositionX: number | null, reframe: string | null, speakerLayout: string | null, style: unknown, hookTitle: unknown, music: unknown, items: unknown, dictionary: Array<string>, createdAt: string, updatedAt: string } };

export type ProjectQueryVariables = Exact<{
  id: string | number;
}>;


export type ProjectQuery = { project: { transcriptionStatus: string | null, failureReason: string | null, downloadUrl: string | null, directUrl: string | null, previewUrl: string | null, kind: ProjectKind, id: string, title: string, language: string, status: ProjectStatus, webhookUrl: string | null, templateName: string, userThemeId: string | null, presetId: string | null, aiEditTemplate: string | null, magicZooms: boolean, magicBrolls: boolean, magicBrollsPercentage: number, removeSilencePace: string | null, removeBadTakes: boolean, cleanAudio: boolean, disableCaptions: boolean, autoRender: boolean, captionPositionY: number | null, captionPositionX: number | null, reframe: string | null, speakerLayout: string | null, style: unknown, hookTitle: unknown, music: unknown, items: unknown, dictionary: Array<string>, createdAt: string, updatedAt: string, minClipLength: number | null, maxClipLength: number | null, faceTracking: boolean | null, clipCount: number | null, topic: string | null, aspectRatio: string | null, clipsNote: string | null, videoMetaData: { width: number, height: number, duration: number, fps: number } | null, words: Array<{ id: string, text: string, type: string, startTime: number, endTime: number, color: string | null, emphasis: boolean | null, emoji: string | null, hidden: boolean | null }> | null, magicClips: Array<{ id: string, title: string, startTime: number, endTime: number, duration: number, projectId: string | null, viralityReasons: Array<string>, rank: number, topicMatch: number | null, hookTitle: string | null, transcript: string, status: string, failureReason: string | null, previewUrl: string | null, downloadUrl: string | null, directUrl: string | null, viralityScores: { total: number, shareability: number, hook_strength: number, story_quality: number, emotional_impact: number } }>, range: { startTime: number, endTime: number } | null } };

export type ProjectsPageQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  status?: ProjectStatus | null | undefined;
  kind?: ProjectKind | null | undefined;
  q?: string | null | undefined;
}>;


export type ProjectsPageQuery = { projects: { edges: Array<{ node: { id: string, title: string, kind: ProjectKind, status: ProjectStatus, language: string, previewUrl: string | null, downloadUrl: string | null, createdAt: string, updatedAt: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type DeleteProjectMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteProjectMutation = { deleteProject: { id: string, title: string, kind: ProjectKind, cancelledPublications: Array<{ id: string, refundedCredits: number }> } };

type StatsFields_ProfileStats_Fragment = { metric: string, period: { from: string, to: string, priorFrom: string, priorTo: string }, summary: { views: { current: number, prior: number }, engagement: { current: number, prior: number }, followers: { current: number, prior: number } }, timeseries: Array<{ date: string, total: number, breakdown: Array<{ platform: string, value: number }> }> };

type StatsFields_PublishingStats_Fragment = { metric: string, period: { from: string, to: string, priorFrom: string, priorTo: string }, summary: { views: { current: number, prior: number }, engagement: { current: number, prior: number }, followers: { current: number, prior: number } }, timeseries: Array<{ date: string, total: number, breakdown: Array<{ platform: string, value: number }> }> };

export type StatsFieldsFragment =
  | StatsFields_ProfileStats_Fragment
  | StatsFields_PublishingStats_Fragment
;

export type ProfileStatsQueryVariables = Exact<{
  profileId: string | number;
  from?: string | null | undefined;
  to?: string | null | undefined;
  platform?: string | null | undefined;
  metric?: string | null | undefined;
}>;


export type ProfileStatsQuery = { profileStats: { metric: string, profile: { id: string, name: string, isPrimary: boolean }, period: { from: string, to: string, priorFrom: string, priorTo: string }, summary: { views: { current: number, prior: number }, engagement: { current: number, prior: number }, followers: { current: number, prior: number } }, timeseries: Array<{ date: string, total: number, breakdown: Array<{ platform: string, value: number }> }> } };

export type PublishingStatsQueryVariables = Exact<{
  from?: string | null | undefined;
  to?: string | null | undefined;
  platform?: string | null | undefined;
  metric?: string | null | undefined;
}>;


export type PublishingStatsQuery = { publishingStats: { metric: string, period: { from: string, to: string, priorFrom: string, priorTo: string }, summary: { views: { current: number, prior: number }, engagement: { current: number, prior: number }, followers: { current: number, prior: number } }, timeseries: Array<{ date: string, total: number, breakdown: Array<{ platform: string, value: number }> }> } };

export type PublicationFieldsFragment = { id: string, projectId: string, scheduled: boolean, publishedAt: string, status: PublishStatus, platforms: Array<PlatformKey>, project: { id: string, title: string }, totals: { views: number, engagement: number, followersGained: number }, posts: Array<{ platform: PlatformKey, platformPostId: string | null, platformPostUrl: string | null, publishStatus: PublishStatus, syncStatus: SyncStatus, error: string | null, analytics: { views: number, likes: number, comments: number, shares: number, impressions: number, reach: number, clicks: number, engagementRate: number } | null }> };

export type PublishProjectMutationVariables = Exact<{
  projectId: string | number;
  input: PublishInput;
}>;


export type PublishProjectMutation = { publishProject: { id: string, projectId: string, scheduled: boolean, publishedAt: string, status: PublishStatus, platforms: Array<PlatformKey> } };

export type PublicationsQueryVariables = Exact<{
  platform?: string | null | undefined;
  profileId?: string | null | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
  sortBy?: string | null | undefined;
  direction?: string | null | undefined;
  limit?: number | null | undefined;
  cursor?: string | null | undefined;
}>;


export type PublicationsQuery = { publications: { nextCursor: string | null, data: Array<{ id: string, projectId: string, scheduled: boolean, publishedAt: string, status: PublishStatus, platforms: Array<PlatformKey>, project: { id: string, title: string }, totals: { views: number, engagement: number, followersGained: number }, posts: Array<{ platform: PlatformKey, platformPostId: string | null, platformPostUrl: string | null, publishStatus: PublishStatus, syncStatus: SyncStatus, error: string | null, analytics: { views: number, likes: number, comments: number, shares: number, impressions: number, reach: number, clicks: number, engagementRate: number } | null }> }> } };

export type PublicationQueryVariables = Exact<{
  id: string | number;
}>;


export type PublicationQuery = { publication: { id: string, projectId: string, scheduled: boolean, publishedAt: string, status: PublishStatus, platforms: Array<PlatformKey>, project: { id: string, title: string }, totals: { views: number, engagement: number, followersGained: number }, posts: Array<{ platform: PlatformKey, platformPostId: string | null, platformPostUrl: string | null, publishStatus: PublishStatus, syncStatus: SyncStatus, error: string | null, analytics: { views: number, likes: number, comments: number, shares: number, impressions: number, reach: number, clicks: number, engagementRate: number } | null }> } };

export type CancelPublicationMutationVariables = Exact<{
  id: string | number;
}>;


export type CancelPublicationMutation = { cancelPublication: { id: string, refundedCredits: number } };

export type ThemeFieldsFragment = { id: string, name: string, basedOn: string, changes: unknown, style: unknown, createdAt: string, updatedAt: string };

export type UserThemesQueryVariables = Exact<{ [key: string]: never; }>;


export type UserThemesQuery = { userThemes: Array<{ id: string, name: string, basedOn: string, changes: unknown, style: unknown, createdAt: string, updatedAt: string }> };

export type UserThemeQueryVariables = Exact<{
  id: string | number;
}>;


export type UserThemeQuery = { userTheme: { id: string, name: string, basedOn: string, changes: unknown, style: unknown, createdAt: string, updatedAt: string } };

export type CreateUserThemeMutationVariables = Exact<{
  input: UserThemeInput;
}>;


export type CreateUserThemeMutation = { createUserTheme: { id: string, name: string, basedOn: string, changes: unknown, style: unknown, createdAt: string, updatedAt: string } };

export type UpdateUserThemeMutationVariables = Exact<{
  id: string | number;
  input: UserThemeInput;
}>;


export type UpdateUserThemeMutation = { updateUserTheme: { id: string, name: string, basedOn: string, changes: unknown, style: unknown, createdAt: string, updatedAt: string } };

export type DeleteUserThemeMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteUserThemeMutation = { deleteUserTheme: { id: string } };

export const SocialAccountFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SocialAccountFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SocialAccount"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"handle"}},{"kind":"Field","name":{"kind":"Name","value":"isPrivate"}},{"kind":"Field","name":{"kind":"Name","value":"followers"}},{"kind":"Field","name":{"kind":"Name","value":"connector"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"statusReason"}},{"kind":"Field","name":{"kind":"Name","value":"connectedAt"}}]}}]} as unknown as DocumentNode<SocialAccountFieldsFragment, unknown>;
export const ProfileFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProfileFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Profile"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"isPrimary"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"accounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SocialAccountFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SocialAccountFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SocialAccount"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"handle"}},{"kind":"Field","name":{"kind":"Name","value":"isPrivate"}},{"kind":"Field","name":{"kind":"Name","value":"followers"}},{"kind":"Field","name":{"kind":"Name","value":"connector"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"statusReason"}},{"kind":"Field","name":{"kind":"Name","value":"connectedAt"}}]}}]} as unknown as DocumentNode<ProfileFieldsFragment, unknown>;
export const CaptionStyleFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CaptionStyleFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CaptionStyle"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"font"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"family"}},{"kind":"Field","name":{"kind":"Name","value":"weight"}},{"kind":"Field","name":{"kind":"Name","value":"size"}},{"kind":"Field","name":{"kind":"Name","value":"case"}}]}},{"kind":"Field","name":{"kind":"Name","value":"fill"}},{"kind":"Field","name":{"kind":"Name","value":"alternateFill"}},{"kind":"Field","name":{"kind":"Name","value":"outline"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"color"}},{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"glow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"shadow"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"color"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}}]}},{"kind":"Field","name":{"kind":"Name","value":"box"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"color"}},{"kind":"Field","name":{"kind":"Name","value":"padding"}}]}},{"kind":"Field","name":{"kind":"Name","value":"layout"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"wordsPerLine"}},{"kind":"Field","name":{"kind":"Name","value":"linesPerPage"}},{"kind":"Field","name":{"kind":"Name","value":"positionY"}}]}},{"kind":"Field","name":{"kind":"Name","value":"activeWord"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"effect"}},{"kind":"Field","name":{"kind":"Name","value":"color"}},{"kind":"Field","name":{"kind":"Name","value":"scale"}}]}},{"kind":"Field","name":{"kind":"Name","value":"entrance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"effect"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}}]}},{"kind":"Field","name":{"kind":"Name","value":"emphasis"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rules"}},{"kind":"Field","name":{"kind":"Name","value":"words"}},{"kind":"Field","name":{"kind":"Name","value":"color"}},{"kind":"Field","name":{"kind":"Name","value":"scale"}}]}},{"kind":"Field","name":{"kind":"Name","value":"emoji"}}]}}]} as unknown as DocumentNode<CaptionStyleFieldsFragment, unknown>;
export const MagicClipsRecordFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MagicClipsRecord"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Project"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"language"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"webhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"userThemeId"}},{"kind":"Field","name":{"kind":"Name","value":"minClipLength"}},{"kind":"Field","name":{"kind":"Name","value":"maxClipLength"}},{"kind":"Field","name":{"kind":"Name","value":"faceTracking"}},{"kind":"Field","name":{"kind":"Name","value":"clipCount"}},{"kind":"Field","name":{"kind":"Name","value":"topic"}},{"kind":"Field","name":{"kind":"Name","value":"range"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}}]}},{"kind":"Field","name":{"kind":"Name","value":"aspectRatio"}},{"kind":"Field","name":{"kind":"Name","value":"speakerLayout"}},{"kind":"Field","name":{"kind":"Name","value":"style"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"clipsNote"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<MagicClipsRecordFragment, unknown>;
export const MagicClipRecordFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MagicClipRecord"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MagicClip"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"viralityScores"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"shareability"}},{"kind":"Field","name":{"kind":"Name","value":"hook_strength"}},{"kind":"Field","name":{"kind":"Name","value":"story_quality"}},{"kind":"Field","name":{"kind":"Name","value":"emotional_impact"}}]}},{"kind":"Field","name":{"kind":"Name","value":"projectId"}},{"kind":"Field","name":{"kind":"Name","value":"viralityReasons"}},{"kind":"Field","name":{"kind":"Name","value":"rank"}},{"kind":"Field","name":{"kind":"Name","value":"topicMatch"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"transcript"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"previewUrl"}},{"kind":"Field","name":{"kind":"Name","value":"downloadUrl"}},{"kind":"Field","name":{"kind":"Name","value":"directUrl"}}]}}]} as unknown as DocumentNode<MagicClipRecordFragment, unknown>;
export const PresetFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PresetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Preset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"captions"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"magicZooms"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrolls"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrollsPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrollsTransitions"}},{"kind":"Field","name":{"kind":"Name","value":"logo"}},{"kind":"Field","name":{"kind":"Name","value":"colorFilter"}},{"kind":"Field","name":{"kind":"Name","value":"cleanAudio"}},{"kind":"Field","name":{"kind":"Name","value":"eyeContactCorrection"}},{"kind":"Field","name":{"kind":"Name","value":"music"}},{"kind":"Field","name":{"kind":"Name","value":"musicVolume"}},{"kind":"Field","name":{"kind":"Name","value":"transitionSoundVolume"}},{"kind":"Field","name":{"kind":"Name","value":"configured"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"captions"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"logo"}},{"kind":"Field","name":{"kind":"Name","value":"colorFilter"}},{"kind":"Field","name":{"kind":"Name","value":"music"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sourceProjectId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<PresetFieldsFragment, unknown>;
export const ProjectRecordFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProjectRecord"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Project"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"language"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"webhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"userThemeId"}},{"kind":"Field","name":{"kind":"Name","value":"presetId"}},{"kind":"Field","name":{"kind":"Name","value":"aiEditTemplate"}},{"kind":"Field","name":{"kind":"Name","value":"magicZooms"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrolls"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrollsPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"removeSilencePace"}},{"kind":"Field","name":{"kind":"Name","value":"removeBadTakes"}},{"kind":"Field","name":{"kind":"Name","value":"cleanAudio"}},{"kind":"Field","name":{"kind":"Name","value":"disableCaptions"}},{"kind":"Field","name":{"kind":"Name","value":"autoRender"}},{"kind":"Field","name":{"kind":"Name","value":"captionPositionY"}},{"kind":"Field","name":{"kind":"Name","value":"captionPositionX"}},{"kind":"Field","name":{"kind":"Name","value":"reframe"}},{"kind":"Field","name":{"kind":"Name","value":"speakerLayout"}},{"kind":"Field","name":{"kind":"Name","value":"style"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"music"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"dictionary"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<ProjectRecordFragment, unknown>;
export const StatsFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"StatsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Stats"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"period"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"priorFrom"}},{"kind":"Field","name":{"kind":"Name","value":"priorTo"}}]}},{"kind":"Field","name":{"kind":"Name","value":"summary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"views"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"current"}},{"kind":"Field","name":{"kind":"Name","value":"prior"}}]}},{"kind":"Field","name":{"kind":"Name","value":"engagement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"current"}},{"kind":"Field","name":{"kind":"Name","value":"prior"}}]}},{"kind":"Field","name":{"kind":"Name","value":"followers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"current"}},{"kind":"Field","name":{"kind":"Name","value":"prior"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"metric"}},{"kind":"Field","name":{"kind":"Name","value":"timeseries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"date"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"breakdown"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}}]} as unknown as DocumentNode<StatsFieldsFragment, unknown>;
export const PublicationFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PublicationFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Publication"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"projectId"}},{"kind":"Field","name":{"kind":"Name","value":"scheduled"}},{"kind":"Field","name":{"kind":"Name","value":"publishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"platforms"}},{"kind":"Field","name":{"kind":"Name","value":"project"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"Field","name":{"kind":"Name","value":"totals"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"engagement"}},{"kind":"Field","name":{"kind":"Name","value":"followersGained"}}]}},{"kind":"Field","name":{"kind":"Name","value":"posts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"platformPostId"}},{"kind":"Field","name":{"kind":"Name","value":"platformPostUrl"}},{"kind":"Field","name":{"kind":"Name","value":"publishStatus"}},{"kind":"Field","name":{"kind":"Name","value":"syncStatus"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"analytics"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"likes"}},{"kind":"Field","name":{"kind":"Name","value":"comments"}},{"kind":"Field","name":{"kind":"Name","value":"shares"}},{"kind":"Field","name":{"kind":"Name","value":"impressions"}},{"kind":"Field","name":{"kind":"Name","value":"reach"}},{"kind":"Field","name":{"kind":"Name","value":"clicks"}},{"kind":"Field","name":{"kind":"Name","value":"engagementRate"}}]}}]}}]}}]} as unknown as DocumentNode<PublicationFieldsFragment, unknown>;
export const ThemeFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ThemeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserTheme"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"basedOn"}},{"kind":"Field","name":{"kind":"Name","value":"changes"}},{"kind":"Field","name":{"kind":"Name","value":"style"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<ThemeFieldsFragment, unknown>;
export const AccountDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Account"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"account"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"entitlements"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clipsSubscription"}},{"kind":"Field","name":{"kind":"Name","value":"apiPublishing"}}]}},{"kind":"Field","name":{"kind":"Name","value":"balances"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiCredits"}},{"kind":"Field","name":{"kind":"Name","value":"aiCredits"}},{"kind":"Field","name":{"kind":"Name","value":"aiUnlimited"}},{"kind":"Field","name":{"kind":"Name","value":"clipCredits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]} as unknown as DocumentNode<AccountQuery, AccountQueryVariables>;
export const CreditLedgerPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CreditLedgerPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CreditKind"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"creditLedger"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"delta"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"subjectId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<CreditLedgerPageQuery, CreditLedgerPageQueryVariables>;
export const ApiKeysDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ApiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"current"}}]}}]}}]} as unknown as DocumentNode<ApiKeysQuery, ApiKeysQueryVariables>;
export const CreateApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateApiKey"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createApiKey"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKey"}},{"kind":"Field","name":{"kind":"Name","value":"key"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]} as unknown as DocumentNode<CreateApiKeyMutation, CreateApiKeyMutationVariables>;
export const RevokeApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RevokeApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]} as unknown as DocumentNode<RevokeApiKeyMutation, RevokeApiKeyMutationVariables>;
export const PlatformsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Platforms"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"platforms"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"available"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"redirectUri"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"}}]}}]}}]} as unknown as DocumentNode<PlatformsQuery, PlatformsQueryVariables>;
export const ProfilesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Profiles"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"profiles"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProfileFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SocialAccountFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SocialAccount"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"handle"}},{"kind":"Field","name":{"kind":"Name","value":"isPrivate"}},{"kind":"Field","name":{"kind":"Name","value":"followers"}},{"kind":"Field","name":{"kind":"Name","value":"connector"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"statusReason"}},{"kind":"Field","name":{"kind":"Name","value":"connectedAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProfileFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Profile"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"isPrimary"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"accounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SocialAccountFields"}}]}}]}}]} as unknown as DocumentNode<ProfilesQuery, ProfilesQueryVariables>;
export const CreateProfileDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateProfile"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateProfileInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createProfile"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProfileFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SocialAccountFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SocialAccount"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"handle"}},{"kind":"Field","name":{"kind":"Name","value":"isPrivate"}},{"kind":"Field","name":{"kind":"Name","value":"followers"}},{"kind":"Field","name":{"kind":"Name","value":"connector"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"statusReason"}},{"kind":"Field","name":{"kind":"Name","value":"connectedAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProfileFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Profile"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"isPrimary"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"accounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SocialAccountFields"}}]}}]}}]} as unknown as DocumentNode<CreateProfileMutation, CreateProfileMutationVariables>;
export const UpdateProfileDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateProfile"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateProfileInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateProfile"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProfileFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SocialAccountFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SocialAccount"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"handle"}},{"kind":"Field","name":{"kind":"Name","value":"isPrivate"}},{"kind":"Field","name":{"kind":"Name","value":"followers"}},{"kind":"Field","name":{"kind":"Name","value":"connector"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"statusReason"}},{"kind":"Field","name":{"kind":"Name","value":"connectedAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProfileFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Profile"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"isPrimary"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"accounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SocialAccountFields"}}]}}]}}]} as unknown as DocumentNode<UpdateProfileMutation, UpdateProfileMutationVariables>;
export const DeleteProfileDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteProfile"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteProfile"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<DeleteProfileMutation, DeleteProfileMutationVariables>;
export const ConnectAccountDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConnectAccount"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"profileId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"platform"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PlatformKey"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"returnUrl"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"connectAccount"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"profileId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"profileId"}}},{"kind":"Argument","name":{"kind":"Name","value":"platform"},"value":{"kind":"Variable","name":{"kind":"Name","value":"platform"}}},{"kind":"Argument","name":{"kind":"Name","value":"returnUrl"},"value":{"kind":"Variable","name":{"kind":"Name","value":"returnUrl"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"authorizationUrl"}},{"kind":"Field","name":{"kind":"Name","value":"redirectUri"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<ConnectAccountMutation, ConnectAccountMutationVariables>;
export const DisconnectAccountDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DisconnectAccount"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"profileId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"platform"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PlatformKey"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"disconnectAccount"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"profileId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"profileId"}}},{"kind":"Argument","name":{"kind":"Name","value":"platform"},"value":{"kind":"Variable","name":{"kind":"Name","value":"platform"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SocialAccountFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SocialAccountFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SocialAccount"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"handle"}},{"kind":"Field","name":{"kind":"Name","value":"isPrivate"}},{"kind":"Field","name":{"kind":"Name","value":"followers"}},{"kind":"Field","name":{"kind":"Name","value":"connector"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"statusReason"}},{"kind":"Field","name":{"kind":"Name","value":"connectedAt"}}]}}]} as unknown as DocumentNode<DisconnectAccountMutation, DisconnectAccountMutationVariables>;
export const LanguagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Languages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"languages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"code"}}]}}]}}]} as unknown as DocumentNode<LanguagesQuery, LanguagesQueryVariables>;
export const CaptionTemplateNamesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CaptionTemplateNames"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"captionTemplates"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<CaptionTemplateNamesQuery, CaptionTemplateNamesQueryVariables>;
export const HookTitleTemplateNamesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"HookTitleTemplateNames"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hookTitleTemplates"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<HookTitleTemplateNamesQuery, HookTitleTemplateNamesQueryVariables>;
export const CaptionTemplateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CaptionTemplate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"captionTemplate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"style"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CaptionStyleFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"previewUrl"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CaptionStyleFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CaptionStyle"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"font"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"family"}},{"kind":"Field","name":{"kind":"Name","value":"weight"}},{"kind":"Field","name":{"kind":"Name","value":"size"}},{"kind":"Field","name":{"kind":"Name","value":"case"}}]}},{"kind":"Field","name":{"kind":"Name","value":"fill"}},{"kind":"Field","name":{"kind":"Name","value":"alternateFill"}},{"kind":"Field","name":{"kind":"Name","value":"outline"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"color"}},{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"glow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"shadow"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"color"}},{"kind":"Field","name":{"kind":"Name","value":"depth"}}]}},{"kind":"Field","name":{"kind":"Name","value":"box"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"color"}},{"kind":"Field","name":{"kind":"Name","value":"padding"}}]}},{"kind":"Field","name":{"kind":"Name","value":"layout"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"wordsPerLine"}},{"kind":"Field","name":{"kind":"Name","value":"linesPerPage"}},{"kind":"Field","name":{"kind":"Name","value":"positionY"}}]}},{"kind":"Field","name":{"kind":"Name","value":"activeWord"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"effect"}},{"kind":"Field","name":{"kind":"Name","value":"color"}},{"kind":"Field","name":{"kind":"Name","value":"scale"}}]}},{"kind":"Field","name":{"kind":"Name","value":"entrance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"effect"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}}]}},{"kind":"Field","name":{"kind":"Name","value":"emphasis"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rules"}},{"kind":"Field","name":{"kind":"Name","value":"words"}},{"kind":"Field","name":{"kind":"Name","value":"color"}},{"kind":"Field","name":{"kind":"Name","value":"scale"}}]}},{"kind":"Field","name":{"kind":"Name","value":"emoji"}}]}}]} as unknown as DocumentNode<CaptionTemplateQuery, CaptionTemplateQueryVariables>;
export const HookTitleTemplateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"HookTitleTemplate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hookTitleTemplate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"font"}},{"kind":"Field","name":{"kind":"Name","value":"fontWeight"}},{"kind":"Field","name":{"kind":"Name","value":"uppercase"}},{"kind":"Field","name":{"kind":"Name","value":"textColor"}},{"kind":"Field","name":{"kind":"Name","value":"backgroundColor"}},{"kind":"Field","name":{"kind":"Name","value":"outlineColor"}},{"kind":"Field","name":{"kind":"Name","value":"outlineWidth"}},{"kind":"Field","name":{"kind":"Name","value":"shadow"}},{"kind":"Field","name":{"kind":"Name","value":"glow"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"fade"}},{"kind":"Field","name":{"kind":"Name","value":"previewUrl"}}]}}]}}]} as unknown as DocumentNode<HookTitleTemplateQuery, HookTitleTemplateQueryVariables>;
export const ExportProjectDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ExportProject"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ExportProjectInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"exportProject"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"projectId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<ExportProjectMutation, ExportProjectMutationVariables>;
export const ProjectCaptionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProjectCaptions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"format"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CaptionFormat"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"captions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"format"},"value":{"kind":"Variable","name":{"kind":"Name","value":"format"}}}]}]}}]}}]} as unknown as DocumentNode<ProjectCaptionsQuery, ProjectCaptionsQueryVariables>;
export const CreateUserMediaDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateUserMedia"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"url"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createUserMedia"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"url"},"value":{"kind":"Variable","name":{"kind":"Name","value":"url"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"userMediaId"}}]}}]}}]} as unknown as DocumentNode<CreateUserMediaMutation, CreateUserMediaMutationVariables>;
export const UploadUserMediaDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UploadUserMedia"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"file"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Upload"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uploadUserMedia"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"file"},"value":{"kind":"Variable","name":{"kind":"Name","value":"file"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"userMediaId"}}]}}]}}]} as unknown as DocumentNode<UploadUserMediaMutation, UploadUserMediaMutationVariables>;
export const UserMediaPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"UserMediaPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"type"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"MediaType"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"userMedia"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"type"},"value":{"kind":"Variable","name":{"kind":"Name","value":"type"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"fileName"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<UserMediaPageQuery, UserMediaPageQueryVariables>;
export const MusicCatalogueDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MusicCatalogue"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"music"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}}]}}]}}]} as unknown as DocumentNode<MusicCatalogueQuery, MusicCatalogueQueryVariables>;
export const DeleteUserMediaDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteUserMedia"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteUserMedia"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"fileName"}}]}}]}}]} as unknown as DocumentNode<DeleteUserMediaMutation, DeleteUserMediaMutationVariables>;
export const CreateMagicClipsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateMagicClips"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateMagicClipsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createMagicClips"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MagicClipsRecord"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MagicClipsRecord"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Project"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"language"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"webhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"userThemeId"}},{"kind":"Field","name":{"kind":"Name","value":"minClipLength"}},{"kind":"Field","name":{"kind":"Name","value":"maxClipLength"}},{"kind":"Field","name":{"kind":"Name","value":"faceTracking"}},{"kind":"Field","name":{"kind":"Name","value":"clipCount"}},{"kind":"Field","name":{"kind":"Name","value":"topic"}},{"kind":"Field","name":{"kind":"Name","value":"range"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}}]}},{"kind":"Field","name":{"kind":"Name","value":"aspectRatio"}},{"kind":"Field","name":{"kind":"Name","value":"speakerLayout"}},{"kind":"Field","name":{"kind":"Name","value":"style"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"clipsNote"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<CreateMagicClipsMutation, CreateMagicClipsMutationVariables>;
export const UploadMagicClipsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UploadMagicClips"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UploadMagicClipsInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"file"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Upload"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uploadMagicClips"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"file"},"value":{"kind":"Variable","name":{"kind":"Name","value":"file"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MagicClipsRecord"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MagicClipsRecord"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Project"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"language"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"webhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"userThemeId"}},{"kind":"Field","name":{"kind":"Name","value":"minClipLength"}},{"kind":"Field","name":{"kind":"Name","value":"maxClipLength"}},{"kind":"Field","name":{"kind":"Name","value":"faceTracking"}},{"kind":"Field","name":{"kind":"Name","value":"clipCount"}},{"kind":"Field","name":{"kind":"Name","value":"topic"}},{"kind":"Field","name":{"kind":"Name","value":"range"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}}]}},{"kind":"Field","name":{"kind":"Name","value":"aspectRatio"}},{"kind":"Field","name":{"kind":"Name","value":"speakerLayout"}},{"kind":"Field","name":{"kind":"Name","value":"style"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"clipsNote"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<UploadMagicClipsMutation, UploadMagicClipsMutationVariables>;
export const ClipScoreCalibrationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ClipScoreCalibration"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clipScoreCalibration"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publishedClips"}},{"kind":"Field","name":{"kind":"Name","value":"views"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clips"}},{"kind":"Field","name":{"kind":"Name","value":"rho"}}]}},{"kind":"Field","name":{"kind":"Name","value":"engagementRate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clips"}},{"kind":"Field","name":{"kind":"Name","value":"rho"}}]}}]}}]}}]} as unknown as DocumentNode<ClipScoreCalibrationQuery, ClipScoreCalibrationQueryVariables>;
export const PresetsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Presets"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"presets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PresetFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PresetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Preset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"captions"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"magicZooms"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrolls"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrollsPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrollsTransitions"}},{"kind":"Field","name":{"kind":"Name","value":"logo"}},{"kind":"Field","name":{"kind":"Name","value":"colorFilter"}},{"kind":"Field","name":{"kind":"Name","value":"cleanAudio"}},{"kind":"Field","name":{"kind":"Name","value":"eyeContactCorrection"}},{"kind":"Field","name":{"kind":"Name","value":"music"}},{"kind":"Field","name":{"kind":"Name","value":"musicVolume"}},{"kind":"Field","name":{"kind":"Name","value":"transitionSoundVolume"}},{"kind":"Field","name":{"kind":"Name","value":"configured"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"captions"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"logo"}},{"kind":"Field","name":{"kind":"Name","value":"colorFilter"}},{"kind":"Field","name":{"kind":"Name","value":"music"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sourceProjectId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<PresetsQuery, PresetsQueryVariables>;
export const PresetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Preset"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"preset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PresetFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PresetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Preset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"captions"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"magicZooms"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrolls"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrollsPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrollsTransitions"}},{"kind":"Field","name":{"kind":"Name","value":"logo"}},{"kind":"Field","name":{"kind":"Name","value":"colorFilter"}},{"kind":"Field","name":{"kind":"Name","value":"cleanAudio"}},{"kind":"Field","name":{"kind":"Name","value":"eyeContactCorrection"}},{"kind":"Field","name":{"kind":"Name","value":"music"}},{"kind":"Field","name":{"kind":"Name","value":"musicVolume"}},{"kind":"Field","name":{"kind":"Name","value":"transitionSoundVolume"}},{"kind":"Field","name":{"kind":"Name","value":"configured"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"captions"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"logo"}},{"kind":"Field","name":{"kind":"Name","value":"colorFilter"}},{"kind":"Field","name":{"kind":"Name","value":"music"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sourceProjectId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<PresetQuery, PresetQueryVariables>;
export const UpdatePresetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdatePreset"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdatePresetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updatePreset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PresetFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PresetFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Preset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"captions"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"magicZooms"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrolls"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrollsPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrollsTransitions"}},{"kind":"Field","name":{"kind":"Name","value":"logo"}},{"kind":"Field","name":{"kind":"Name","value":"colorFilter"}},{"kind":"Field","name":{"kind":"Name","value":"cleanAudio"}},{"kind":"Field","name":{"kind":"Name","value":"eyeContactCorrection"}},{"kind":"Field","name":{"kind":"Name","value":"music"}},{"kind":"Field","name":{"kind":"Name","value":"musicVolume"}},{"kind":"Field","name":{"kind":"Name","value":"transitionSoundVolume"}},{"kind":"Field","name":{"kind":"Name","value":"configured"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"captions"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"logo"}},{"kind":"Field","name":{"kind":"Name","value":"colorFilter"}},{"kind":"Field","name":{"kind":"Name","value":"music"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sourceProjectId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<UpdatePresetMutation, UpdatePresetMutationVariables>;
export const UpdateProjectDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateProject"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateProjectInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateProject"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<UpdateProjectMutation, UpdateProjectMutationVariables>;
export const PreviewFrameDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PreviewFrame"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"time"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"width"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"height"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateProjectInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"previewFrame"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"projectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"time"},"value":{"kind":"Variable","name":{"kind":"Name","value":"time"}}},{"kind":"Argument","name":{"kind":"Name","value":"width"},"value":{"kind":"Variable","name":{"kind":"Name","value":"width"}}},{"kind":"Argument","name":{"kind":"Name","value":"height"},"value":{"kind":"Variable","name":{"kind":"Name","value":"height"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataUrl"}}]}}]}}]} as unknown as DocumentNode<PreviewFrameQuery, PreviewFrameQueryVariables>;
export const CreateProjectDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateProject"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateProjectInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createProject"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProjectRecord"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProjectRecord"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Project"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"language"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"webhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"userThemeId"}},{"kind":"Field","name":{"kind":"Name","value":"presetId"}},{"kind":"Field","name":{"kind":"Name","value":"aiEditTemplate"}},{"kind":"Field","name":{"kind":"Name","value":"magicZooms"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrolls"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrollsPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"removeSilencePace"}},{"kind":"Field","name":{"kind":"Name","value":"removeBadTakes"}},{"kind":"Field","name":{"kind":"Name","value":"cleanAudio"}},{"kind":"Field","name":{"kind":"Name","value":"disableCaptions"}},{"kind":"Field","name":{"kind":"Name","value":"autoRender"}},{"kind":"Field","name":{"kind":"Name","value":"captionPositionY"}},{"kind":"Field","name":{"kind":"Name","value":"captionPositionX"}},{"kind":"Field","name":{"kind":"Name","value":"reframe"}},{"kind":"Field","name":{"kind":"Name","value":"speakerLayout"}},{"kind":"Field","name":{"kind":"Name","value":"style"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"music"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"dictionary"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<CreateProjectMutation, CreateProjectMutationVariables>;
export const UploadProjectDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UploadProject"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UploadProjectInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"file"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Upload"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uploadProject"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"file"},"value":{"kind":"Variable","name":{"kind":"Name","value":"file"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProjectRecord"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProjectRecord"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Project"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"language"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"webhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"userThemeId"}},{"kind":"Field","name":{"kind":"Name","value":"presetId"}},{"kind":"Field","name":{"kind":"Name","value":"aiEditTemplate"}},{"kind":"Field","name":{"kind":"Name","value":"magicZooms"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrolls"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrollsPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"removeSilencePace"}},{"kind":"Field","name":{"kind":"Name","value":"removeBadTakes"}},{"kind":"Field","name":{"kind":"Name","value":"cleanAudio"}},{"kind":"Field","name":{"kind":"Name","value":"disableCaptions"}},{"kind":"Field","name":{"kind":"Name","value":"autoRender"}},{"kind":"Field","name":{"kind":"Name","value":"captionPositionY"}},{"kind":"Field","name":{"kind":"Name","value":"captionPositionX"}},{"kind":"Field","name":{"kind":"Name","value":"reframe"}},{"kind":"Field","name":{"kind":"Name","value":"speakerLayout"}},{"kind":"Field","name":{"kind":"Name","value":"style"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"music"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"dictionary"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<UploadProjectMutation, UploadProjectMutationVariables>;
export const ProjectDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Project"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProjectRecord"}},{"kind":"Field","name":{"kind":"Name","value":"transcriptionStatus"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"videoMetaData"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"height"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"fps"}}]}},{"kind":"Field","name":{"kind":"Name","value":"words"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"color"}},{"kind":"Field","name":{"kind":"Name","value":"emphasis"}},{"kind":"Field","name":{"kind":"Name","value":"emoji"}},{"kind":"Field","name":{"kind":"Name","value":"hidden"}}]}},{"kind":"Field","name":{"kind":"Name","value":"downloadUrl"}},{"kind":"Field","name":{"kind":"Name","value":"directUrl"}},{"kind":"Field","name":{"kind":"Name","value":"previewUrl"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"MagicClipsRecord"}},{"kind":"Field","name":{"kind":"Name","value":"magicClips"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MagicClipRecord"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProjectRecord"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Project"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"language"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"webhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"userThemeId"}},{"kind":"Field","name":{"kind":"Name","value":"presetId"}},{"kind":"Field","name":{"kind":"Name","value":"aiEditTemplate"}},{"kind":"Field","name":{"kind":"Name","value":"magicZooms"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrolls"}},{"kind":"Field","name":{"kind":"Name","value":"magicBrollsPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"removeSilencePace"}},{"kind":"Field","name":{"kind":"Name","value":"removeBadTakes"}},{"kind":"Field","name":{"kind":"Name","value":"cleanAudio"}},{"kind":"Field","name":{"kind":"Name","value":"disableCaptions"}},{"kind":"Field","name":{"kind":"Name","value":"autoRender"}},{"kind":"Field","name":{"kind":"Name","value":"captionPositionY"}},{"kind":"Field","name":{"kind":"Name","value":"captionPositionX"}},{"kind":"Field","name":{"kind":"Name","value":"reframe"}},{"kind":"Field","name":{"kind":"Name","value":"speakerLayout"}},{"kind":"Field","name":{"kind":"Name","value":"style"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"music"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"dictionary"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MagicClipsRecord"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Project"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"language"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"webhookUrl"}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"userThemeId"}},{"kind":"Field","name":{"kind":"Name","value":"minClipLength"}},{"kind":"Field","name":{"kind":"Name","value":"maxClipLength"}},{"kind":"Field","name":{"kind":"Name","value":"faceTracking"}},{"kind":"Field","name":{"kind":"Name","value":"clipCount"}},{"kind":"Field","name":{"kind":"Name","value":"topic"}},{"kind":"Field","name":{"kind":"Name","value":"range"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}}]}},{"kind":"Field","name":{"kind":"Name","value":"aspectRatio"}},{"kind":"Field","name":{"kind":"Name","value":"speakerLayout"}},{"kind":"Field","name":{"kind":"Name","value":"style"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"clipsNote"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MagicClipRecord"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MagicClip"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"startTime"}},{"kind":"Field","name":{"kind":"Name","value":"endTime"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"viralityScores"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"shareability"}},{"kind":"Field","name":{"kind":"Name","value":"hook_strength"}},{"kind":"Field","name":{"kind":"Name","value":"story_quality"}},{"kind":"Field","name":{"kind":"Name","value":"emotional_impact"}}]}},{"kind":"Field","name":{"kind":"Name","value":"projectId"}},{"kind":"Field","name":{"kind":"Name","value":"viralityReasons"}},{"kind":"Field","name":{"kind":"Name","value":"rank"}},{"kind":"Field","name":{"kind":"Name","value":"topicMatch"}},{"kind":"Field","name":{"kind":"Name","value":"hookTitle"}},{"kind":"Field","name":{"kind":"Name","value":"transcript"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"previewUrl"}},{"kind":"Field","name":{"kind":"Name","value":"downloadUrl"}},{"kind":"Field","name":{"kind":"Name","value":"directUrl"}}]}}]} as unknown as DocumentNode<ProjectQuery, ProjectQueryVariables>;
export const ProjectsPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProjectsPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"status"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ProjectStatus"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ProjectKind"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"q"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"projects"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"Variable","name":{"kind":"Name","value":"status"}}},{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"q"},"value":{"kind":"Variable","name":{"kind":"Name","value":"q"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"language"}},{"kind":"Field","name":{"kind":"Name","value":"previewUrl"}},{"kind":"Field","name":{"kind":"Name","value":"downloadUrl"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<ProjectsPageQuery, ProjectsPageQueryVariables>;
export const DeleteProjectDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteProject"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteProject"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"cancelledPublications"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"refundedCredits"}}]}}]}}]}}]} as unknown as DocumentNode<DeleteProjectMutation, DeleteProjectMutationVariables>;
export const ProfileStatsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProfileStats"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"profileId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"platform"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"metric"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"profileStats"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"profileId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"profileId"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"platform"},"value":{"kind":"Variable","name":{"kind":"Name","value":"platform"}}},{"kind":"Argument","name":{"kind":"Name","value":"metric"},"value":{"kind":"Variable","name":{"kind":"Name","value":"metric"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"profile"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"isPrimary"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"StatsFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"StatsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Stats"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"period"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"priorFrom"}},{"kind":"Field","name":{"kind":"Name","value":"priorTo"}}]}},{"kind":"Field","name":{"kind":"Name","value":"summary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"views"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"current"}},{"kind":"Field","name":{"kind":"Name","value":"prior"}}]}},{"kind":"Field","name":{"kind":"Name","value":"engagement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"current"}},{"kind":"Field","name":{"kind":"Name","value":"prior"}}]}},{"kind":"Field","name":{"kind":"Name","value":"followers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"current"}},{"kind":"Field","name":{"kind":"Name","value":"prior"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"metric"}},{"kind":"Field","name":{"kind":"Name","value":"timeseries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"date"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"breakdown"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}}]} as unknown as DocumentNode<ProfileStatsQuery, ProfileStatsQueryVariables>;
export const PublishingStatsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PublishingStats"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"platform"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"metric"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publishingStats"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"platform"},"value":{"kind":"Variable","name":{"kind":"Name","value":"platform"}}},{"kind":"Argument","name":{"kind":"Name","value":"metric"},"value":{"kind":"Variable","name":{"kind":"Name","value":"metric"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"StatsFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"StatsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Stats"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"period"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"priorFrom"}},{"kind":"Field","name":{"kind":"Name","value":"priorTo"}}]}},{"kind":"Field","name":{"kind":"Name","value":"summary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"views"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"current"}},{"kind":"Field","name":{"kind":"Name","value":"prior"}}]}},{"kind":"Field","name":{"kind":"Name","value":"engagement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"current"}},{"kind":"Field","name":{"kind":"Name","value":"prior"}}]}},{"kind":"Field","name":{"kind":"Name","value":"followers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"current"}},{"kind":"Field","name":{"kind":"Name","value":"prior"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"metric"}},{"kind":"Field","name":{"kind":"Name","value":"timeseries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"date"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"breakdown"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}}]} as unknown as DocumentNode<PublishingStatsQuery, PublishingStatsQueryVariables>;
export const PublishProjectDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PublishProject"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PublishInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publishProject"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"projectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"projectId"}},{"kind":"Field","name":{"kind":"Name","value":"scheduled"}},{"kind":"Field","name":{"kind":"Name","value":"publishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"platforms"}}]}}]}}]} as unknown as DocumentNode<PublishProjectMutation, PublishProjectMutationVariables>;
export const PublicationsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Publications"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"platform"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"profileId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sortBy"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"direction"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"cursor"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publications"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"platform"},"value":{"kind":"Variable","name":{"kind":"Name","value":"platform"}}},{"kind":"Argument","name":{"kind":"Name","value":"profileId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"profileId"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"sortBy"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sortBy"}}},{"kind":"Argument","name":{"kind":"Name","value":"direction"},"value":{"kind":"Variable","name":{"kind":"Name","value":"direction"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}},{"kind":"Argument","name":{"kind":"Name","value":"cursor"},"value":{"kind":"Variable","name":{"kind":"Name","value":"cursor"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"data"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PublicationFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextCursor"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PublicationFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Publication"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"projectId"}},{"kind":"Field","name":{"kind":"Name","value":"scheduled"}},{"kind":"Field","name":{"kind":"Name","value":"publishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"platforms"}},{"kind":"Field","name":{"kind":"Name","value":"project"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"Field","name":{"kind":"Name","value":"totals"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"engagement"}},{"kind":"Field","name":{"kind":"Name","value":"followersGained"}}]}},{"kind":"Field","name":{"kind":"Name","value":"posts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"platformPostId"}},{"kind":"Field","name":{"kind":"Name","value":"platformPostUrl"}},{"kind":"Field","name":{"kind":"Name","value":"publishStatus"}},{"kind":"Field","name":{"kind":"Name","value":"syncStatus"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"analytics"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"likes"}},{"kind":"Field","name":{"kind":"Name","value":"comments"}},{"kind":"Field","name":{"kind":"Name","value":"shares"}},{"kind":"Field","name":{"kind":"Name","value":"impressions"}},{"kind":"Field","name":{"kind":"Name","value":"reach"}},{"kind":"Field","name":{"kind":"Name","value":"clicks"}},{"kind":"Field","name":{"kind":"Name","value":"engagementRate"}}]}}]}}]}}]} as unknown as DocumentNode<PublicationsQuery, PublicationsQueryVariables>;
export const PublicationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Publication"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"publication"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PublicationFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PublicationFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Publication"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"projectId"}},{"kind":"Field","name":{"kind":"Name","value":"scheduled"}},{"kind":"Field","name":{"kind":"Name","value":"publishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"platforms"}},{"kind":"Field","name":{"kind":"Name","value":"project"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"Field","name":{"kind":"Name","value":"totals"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"engagement"}},{"kind":"Field","name":{"kind":"Name","value":"followersGained"}}]}},{"kind":"Field","name":{"kind":"Name","value":"posts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"platformPostId"}},{"kind":"Field","name":{"kind":"Name","value":"platformPostUrl"}},{"kind":"Field","name":{"kind":"Name","value":"publishStatus"}},{"kind":"Field","name":{"kind":"Name","value":"syncStatus"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"analytics"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"likes"}},{"kind":"Field","name":{"kind":"Name","value":"comments"}},{"kind":"Field","name":{"kind":"Name","value":"shares"}},{"kind":"Field","name":{"kind":"Name","value":"impressions"}},{"kind":"Field","name":{"kind":"Name","value":"reach"}},{"kind":"Field","name":{"kind":"Name","value":"clicks"}},{"kind":"Field","name":{"kind":"Name","value":"engagementRate"}}]}}]}}]}}]} as unknown as DocumentNode<PublicationQuery, PublicationQueryVariables>;
export const CancelPublicationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CancelPublication"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cancelPublication"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"refundedCredits"}}]}}]}}]} as unknown as DocumentNode<CancelPublicationMutation, CancelPublicationMutationVariables>;
export const UserThemesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"UserThemes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"userThemes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ThemeFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ThemeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserTheme"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"basedOn"}},{"kind":"Field","name":{"kind":"Name","value":"changes"}},{"kind":"Field","name":{"kind":"Name","value":"style"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<UserThemesQuery, UserThemesQueryVariables>;
export const UserThemeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"UserTheme"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"userTheme"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ThemeFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ThemeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserTheme"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"basedOn"}},{"kind":"Field","name":{"kind":"Name","value":"changes"}},{"kind":"Field","name":{"kind":"Name","value":"style"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<UserThemeQuery, UserThemeQueryVariables>;
export const CreateUserThemeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateUserTheme"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UserThemeInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createUserTheme"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ThemeFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ThemeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserTheme"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"basedOn"}},{"kind":"Field","name":{"kind":"Name","value":"changes"}},{"kind":"Field","name":{"kind":"Name","value":"style"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<CreateUserThemeMutation, CreateUserThemeMutationVariables>;
export const UpdateUserThemeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateUserTheme"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UserThemeInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateUserTheme"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ThemeFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ThemeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserTheme"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"basedOn"}},{"kind":"Field","name":{"kind":"Name","value":"changes"}},{"kind":"Field","name":{"kind":"Name","value":"style"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<UpdateUserThemeMutation, UpdateUserThemeMutationVariables>;
export const DeleteUserThemeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteUserTheme"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteUserTheme"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<DeleteUserThemeMutation, DeleteUserThemeMutationVariables>;