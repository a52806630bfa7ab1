import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { uploadMutation, type Upload, type UploadProgress } from './api.ts';
import { CREATE_MAGIC_CLIPS, CREATE_PROJECT, LANGUAGES, UPLOAD_MAGIC_CLIPS, UPLOAD_PROJECT, type ProjectSummary } from './documents.ts';
import { PRESET_NAMES } from './documents-manage.ts';
import { go } from './route.ts';
import { ErrorNote } from './ui.tsx';

type Source = 'file' | 'url';
type Kind = 'edit' | 'magic_clips';

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** A project from a file sent with its upload progress, or from a URL the service fetches. */
export function NewProject({ apiKey }: { apiKey: string }) {
  const [{ data: langs }] = useQuery<{ languages: { code: string; name: string }[] }>({ query: LANGUAGES });
  const [, createProject] = useMutation<{ createProject: ProjectSummary }>(CREATE_PROJECT);
  const [, createClips] = useMutation<{ createMagicClips: ProjectSummary }>(CREATE_MAGIC_CLIPS);
  const [source, setSource] = useState<Source>('file');
  const [kind, setKind] = useState<Kind>('edit');
  const [title, setTitle] = useState('');
  const [language, setLanguage] = useState('en');
  const [{ data: presetList }] = useQuery<{ presets: { edges: { node: { id: string; name: string } }[] } }>({ query: PRESET_NAMES });
  const [presetId, setPresetId] = useState('');
  const [url, setUrl] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [clips, setClips] = useState<ClipControls>(NO_CONTROLS);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const upload = useRef<Upload<unknown> | null>(null);
  // leaving the page cancels an upload under way
  useEffect(() => () => upload.current?.abort(), []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    const input = { title: title.trim() || file?.name || 'Untitled', language };
    // a preset applies to a captioned edit
    const edit = kind === 'edit' && presetId ? { ...input, presetId } : input;
    const magic = { ...input, ...clipInput(clips) };
    try {
      let id: string;
      if (source === 'file') {
        if (!file) throw new Error('Choose a video file (mp4 or mov)');
        setProgress({ loaded: 0, total: file.size });
        const [query, field] = kind === 'edit' ? [UPLOAD_PROJECT, 'uploadProject'] : [UPLOAD_MAGIC_CLIPS, 'uploadMagicClips'];
        upload.current = uploadMutation<Record<string, { id: string }>>(apiKey, query, { input: kind === 'edit' ? edit : magic }, 'file', file, setProgress);
        const answer = (await upload.current.done) as Record<string, { id: string }>;
        id = answer[field].id;
      } else if (kind === 'edit') {
        const r = await createProject({ input: { ...edit, videoUrl: url.trim() } });
        if (r.error) throw r.error;
        id = r.data!.createProject.id;
      } else {
        const r = await createClips({ input: { ...magic, videoshareUrl: url.trim() } });
        if (r.error) throw r.error;
        id = r.data!.createMagicClips.id;
      }
      go('projects', id);
    } catch (err) {
      setError(err);
    } finally {
      upload.current = null;
      setBusy(false);
    }
  };

  const percent = progress?.total ? (100 * progress.loaded) / progress.total : 0;
  return (
    <section>
      <h2>New project</h2>
      <form onSubmit={submit} aria-busy={busy}>
        <fieldset className="grid">
          <label>
            <input type="radio" name="kind" checked={kind === 'edit'} onChange={() => setKind('edit')} /> Captioned edit
          </label>
          <label>
            <input type="radio" name="kind" checked={kind === 'magic_clips'} onChange={() => setKind('magic_clips')} /> Magic clips (scored short clips of a
            long video)
          </label>
        </fieldset>
        <div className="grid">
          <label>
            Title
            <input name="title" maxLength={100} placeholder="My video" value={title} onChange={(e) => setTitle(e.target.value)} />
          </label>
          <label>
            Language
            <select name="language" value={language} onChange={(e) => setLanguage(e.target.value)}>
              {(langs?.languages ?? [{ code: 'en', name: 'English' }]).map((l) => (
                <option key={l.code} value={l.code}>
                  {l.name}
                </option>
              ))}
            </select>
          </label>
          {kind === 'edit' && (
            <label>
              Preset
              <select name="presetId" value={presetId} onChange={(e) => setPresetId(e.target.value)}>
                <option value="">None</option>
                {presetList?.presets.edges.map(({ node: p }) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        {kind === 'magic_clips' && <ClipControlsFields value={clips} onChange={setClips} />}
        <div role="group">
          <button type="button" className={source === 'file' ? '' : 'outline'} onClick={() => setSource('file')}>
            Upload a file
          </button>
          <button type="button" className={source === 'url' ? '' : 'outline'} onClick={() => setSource('url')}>
            From a URL
          </button>
        </div>
        {source === 'file' ? (
          <label>
            Video file (mp4 or mov)
            <input name="file" type="file" accept="video/mp4,video/quicktime,.mp4,.mov" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
          </label>
        ) : (
          <label>
            {kind === 'edit' ? 'Video URL (a public mp4 or mov file)' : 'Video page or file URL (a host of VIDEO_PLATFORM_HOSTS)'}
            <input name="url" type="url" placeholder="https://…" value={url} onChange={(e) => setUrl(e.target.value)} required />
          </label>
        )}
        {progress && (
          <div className="progress" data-testid="upload-progress">
            <small>
              Uploading {mb(progress.loaded)} of {mb(progress.total)} — {Math.round(percent)}%
            </small>
            <progress value={percent} max={100} />
          </div>
        )}
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          Create project
        </button>
      </form>
    </section>
  );
}

/** What a creator steers of magic clips; empty fields are left to the service. */
interface ClipControls {
  clipCount: string;
  topic: string;
  from: string;
  to: string;
  aspectRatio: string;
  speakerLayout: string;
  hookTitle: boolean;
}
const NO_CONTROLS: ClipControls = { clipCount: '', topic: '', from: '', to: '', aspectRatio: '9:16', speakerLayout: 'auto', hookTitle: false };

/** "1:30", "90" or "90.5" as seconds; NaN for anything else. */
const secondsOf = (text: string) => {
  const parts = text.trim().split(':');
  if (parts.length > 3 || parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) return Number.NaN;
  return parts.reduce((s, p) => s * 60 + Number(p), 0);
};

/** The controls as the creation input takes them: only those given; a range needs both ends (the service words what is wrong). */
function clipInput(c: ClipControls): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (c.clipCount.trim()) out.clipCount = Number(c.clipCount);
  if (c.topic.trim()) out.topic = c.topic.trim();
  if (c.from.trim() || c.to.trim()) out.range = { startTime: c.from.trim() ? secondsOf(c.from) : 0, endTime: secondsOf(c.to) };
  if (c.aspectRatio !== '9:16') out.aspectRatio = c.aspectRatio;
  if (c.speakerLayout !== 'auto') out.speakerLayout = c.speakerLayout;
  if (c.hookTitle) out.hookTitle = true;
  return out;
}

function ClipControlsFields({ value, onChange }: { value: ClipControls; onChange: (v: ClipControls) => void }) {
  const set = (patch: Partial<ClipControls>) => onChange({ ...value, ...patch });
  return (
    <fieldset>
      <legend>Clips</legend>
      <div className="grid">
        <label>
          How many
          <input
            name="clipCount"
            type="number"
            min={1}
            max={20}
            placeholder="one per 3 minutes"
            value={value.clipCount}
            onChange={(e) => set({ clipCount: e.target.value })}
          />
        </label>
        <label>
          Shape
          <select name="aspectRatio" value={value.aspectRatio} onChange={(e) => set({ aspectRatio: e.target.value })}>
            <option value="9:16">9:16 vertical</option>
            <option value="1:1">1:1 square</option>
            <option value="4:5">4:5 portrait</option>
            <option value="16:9">16:9 wide</option>
          </select>
        </label>
        <label>
          Two people on screen
          <select name="speakerLayout" value={value.speakerLayout} onChange={(e) => set({ speakerLayout: e.target.value })}>
            <option value="auto">Follow the one speaking, both when both speak</option>
            <option value="follow">Always follow the one speaking</option>
            <option value="split">Both, one above the other</option>
          </select>
        </label>
      </div>
      <label>
        About (clips about it come first)
        <input
          name="topic"
          maxLength={200}
          placeholder="e.g. pricing, or sleep and recovery"
          value={value.topic}
          onChange={(e) => set({ topic: e.target.value })}
        />
      </label>
      <div className="grid">
        <label>
          From (m:ss)
          <input name="from" inputMode="decimal" placeholder="start of the video" value={value.from} onChange={(e) => set({ from: e.target.value })} />
        </label>
        <label>
          To (m:ss)
          <input name="to" inputMode="decimal" placeholder="end of the video" value={value.to} onChange={(e) => set({ to: e.target.value })} />
        </label>
      </div>
      <label>
        <input name="hookTitle" type="checkbox" checked={value.hookTitle} onChange={(e) => set({ hookTitle: e.target.checked })} /> A hook title on each clip,
        written from its words
      </label>
    </fieldset>
  );
}
