// The project editor: the video beside its transcript (the spoken word lit as
// it plays, each word a button to correct, delete, split, merge or mark as a
// filler), then the caption style with a live preview, the hook, the effects,
// the library items and music on a timeline, and the export dialog.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useMutation, useQuery } from 'urql';
import {
  CREATE_THEME,
  EDITOR_CATALOG,
  EDITOR_PROJECT,
  EXPORT_WITH,
  UPDATE_PROJECT,
  type EditorProject,
  type EditorWord,
  type HookTitle,
  type LibraryEntry,
  type Template,
  type TimelineItem,
  type UserTheme,
} from './documents-editor.ts';
import { storedKey } from './api.ts';
import { ErrorNote } from './ui.tsx';

type Catalog = {
  captionTemplates: Template[];
  hookTitleTemplates: Template[];
  music: { id: string; name: string; duration: number | null }[];
  userMedia: { edges: { node: LibraryEntry }[] };
  userThemes: UserTheme[];
};

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The project as the editor reads it, and what it saves: read again after each save. */
export function Editor({ id, onSaved }: { id: string; onSaved: () => void }) {
  const [{ data, error }, refetch] = useQuery<{ project: EditorProject }>({ query: EDITOR_PROJECT, variables: { id }, requestPolicy: 'network-only' });
  const [catalog] = useQuery<Catalog>({ query: EDITOR_CATALOG });
  const project = data?.project;
  // which part was saved last: the parts are laid anew from the saved project, the note stays
  const [savedPart, setSavedPart] = useState<string | null>(null);
  const saved: Saved = {
    part: savedPart,
    done: (part) => {
      setSavedPart(part);
      refetch({ requestPolicy: 'network-only' });
      onSaved();
    },
  };
  if (!project) return <ErrorNote error={error} />;
  return (
    <>
      <TranscriptEditor key={project.updatedAt} project={project} onSaved={saved} />
      <StylePanel key={`style-${project.updatedAt}`} project={project} catalog={catalog.data} onSaved={saved} />
      <EffectsPanel key={`fx-${project.updatedAt}`} project={project} onSaved={saved} />
      <Timeline key={`tl-${project.updatedAt}`} project={project} catalog={catalog.data} onSaved={saved} />
    </>
  );
}

interface Saved {
  part: string | null;
  done: (part: string) => void;
}

/** Sends some fields through updateProject; says what happened. */
function useSave(id: string, part: string, saved: Saved) {
  const [state, update] = useMutation(UPDATE_PROJECT);
  const [error, setError] = useState<unknown>(null);
  const [sent, setSent] = useState(false);
  const save = async (input: Record<string, unknown>) => {
    setError(null);
    setSent(true);
    const r = await update({ id, input });
    if (r.error) return setError(r.error);
    saved.done(part);
  };
  return { save, saving: state.fetching, error, done: saved.part === part && !(sent && state.fetching) };
}

function SaveRow({
  label,
  saving,
  done,
  error,
  onSave,
  disabled,
}: {
  label: string;
  saving: boolean;
  done: boolean;
  error: unknown;
  onSave: () => void;
  disabled?: boolean;
}) {
  return (
    <div className="save-row">
      <button type="button" onClick={onSave} aria-busy={saving} disabled={saving || disabled}>
        {label}
      </button>
      {done && !saving && (
        <small role="status" className="saved">
          Saved: the next export shows it.
        </small>
      )}
      <ErrorNote error={error} />
    </div>
  );
}

/** The word being said at `t`, or -1. */
function spokenAt(words: EditorWord[], t: number): number {
  return words.findIndex((w) => w.type !== 'silence' && t >= w.startTime && t < w.endTime);
}

function TranscriptEditor({ project, onSaved }: { project: EditorProject; onSaved: Saved }) {
  const [words, setWords] = useState<EditorWord[]>(() => project.words ?? []);
  const [selected, setSelected] = useState<number | null>(null);
  const [time, setTime] = useState(0);
  const [changed, setChanged] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const { save, saving, error, done } = useSave(project.id, 'transcript', onSaved);
  const spoken = spokenAt(words, time);
  const edit = (next: EditorWord[], select: number | null = selected) => {
    setWords(next);
    setSelected(select);
    setChanged(true);
  };
  const word = selected != null ? words[selected] : undefined;

  const change = (text: string) => selected != null && edit(words.map((w, i) => (i === selected ? { ...w, text } : w)));
  const remove = () => {
    if (selected == null) return;
    edit(
      words.filter((_, i) => i !== selected),
      null,
    );
  };
  /** Two words where one was: its text cut at a space (else in the middle), its time shared by length. */
  const split = () => {
    if (selected == null || !word) return;
    const t = word.text.trim();
    const space = t.indexOf(' ');
    const cut = space > 0 ? space : Math.max(1, Math.floor(t.length / 2));
    const [a, b] = [t.slice(0, cut).trim(), t.slice(cut).trim()];
    if (!a || !b) return;
    const mid = round(word.startTime + ((word.endTime - word.startTime) * a.length) / (a.length + b.length));
    const first = { ...word, text: a, endTime: mid };
    const second: EditorWord = { text: b, type: word.type, startTime: mid, endTime: word.endTime, hidden: word.hidden };
    edit([...words.slice(0, selected), first, second, ...words.slice(selected + 1)]);
  };
  /** The word and the next word (not a silence) as one, keeping the first's id. */
  const merge = () => {
    if (selected == null || !word) return;
    const next = words.findIndex((w, i) => i > selected && w.type !== 'silence');
    if (next < 0) return;
    const joined = { ...word, text: `${word.text}${words[next].type === 'punctuation' ? '' : ' '}${words[next].text}`, endTime: words[next].endTime };
    edit([...words.slice(0, selected), joined, ...words.slice(next + 1)]);
  };
  const filler = () => selected != null && edit(words.map((w, i) => (i === selected ? { ...w, hidden: !w.hidden } : w)));
  const seek = (i: number) => {
    setSelected(i);
    if (video.current) video.current.currentTime = words[i].startTime + 0.01;
  };

  const send = () =>
    save({
      words: words.map((w) => ({
        ...(w.id ? { id: w.id } : {}),
        type: w.type,
        startTime: w.startTime,
        endTime: w.endTime,
        ...(w.type === 'silence' ? {} : { text: w.text }),
        hidden: w.hidden ?? null,
      })),
    });

  return (
    <article className="editor" data-testid="editor">
      <header className="title-row">
        <strong>Transcript editor</strong>
        <small>Click a word to correct it; the word being said is lit as the video plays.</small>
      </header>
      <div className="editor-grid">
        <div>
          {project.directUrl ? (
            <video
              ref={video}
              src={project.directUrl}
              controls
              preload="metadata"
              playsInline
              data-testid="editor-player"
              onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
              onSeeked={(e) => setTime(e.currentTarget.currentTime)}
            />
          ) : (
            <p className="empty">The video appears here once it is exported.</p>
          )}
          <p>
            <small>
              at <time data-testid="editor-time">{time.toFixed(1)} s</time>
            </small>
          </p>
        </div>
        <div>
          <div className="words" data-testid="editor-words" role="group" aria-label="Words">
            {words.map((w, i) =>
              w.type === 'silence' ? null : (
                <button
                  type="button"
                  key={w.id ?? `new-${i}`}
                  className={`word${i === spoken ? ' spoken' : ''}${w.hidden ? ' filler' : ''}`}
                  aria-pressed={i === selected}
                  aria-current={i === spoken ? 'time' : undefined}
                  title={`${w.startTime.toFixed(2)}–${w.endTime.toFixed(2)} s${w.hidden ? ' (filler: left out of the captions)' : ''}`}
                  onClick={() => seek(i)}
                >
                  {w.text}
                </button>
              ),
            )}
          </div>
          {word && (
            <fieldset className="word-tools" data-testid="word-tools">
              <legend>
                Word at {word.startTime.toFixed(2)} s{word.hidden ? ' (filler)' : ''}
              </legend>
              <label>
                Word text
                <input value={word.text} maxLength={200} onChange={(e) => change(e.target.value)} />
              </label>
              <div className="actions">
                <button type="button" className="secondary" onClick={split}>
                  Split
                </button>
                <button type="button" className="secondary" onClick={merge}>
                  Merge with next
                </button>
                <button type="button" className="secondary" onClick={filler} aria-pressed={!!word.hidden}>
                  {word.hidden ? 'Not a filler' : 'Mark as filler'}
                </button>
                <button type="button" className="secondary outline" onClick={remove}>
                  Delete word
                </button>
              </div>
            </fieldset>
          )}
          <SaveRow label="Save transcript" saving={saving} done={done} error={error} onSave={send} disabled={!changed} />
        </div>
      </div>
    </article>
  );
}

/** Calls `fn` once `value` has stayed the same for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/** A /v1 error answer as one line: `{ error: CODE, message, details? }` (src/http/errors.ts); `{ error: { code, message } }` read too. */
function restError(answer: unknown, status: number): string {
  const a = answer as { error?: string | { code?: string; message?: string }; message?: string } | null;
  if (!a?.error) return `HTTP ${status}`;
  const [code, message] = typeof a.error === 'string' ? [a.error, a.message] : [a.error.code, a.error.message];
  return `${code}: ${message ?? ''}`;
}

interface PreviewBody {
  time: number;
  templateName?: string;
  style?: Record<string, unknown>;
  hookTitle?: HookTitle | false;
  width?: number;
  height?: number;
}

/** One frame of the project as it would export, from POST /v1/projects/{id}/preview; the last image stays until the next arrives. */
function usePreview(id: string, body: PreviewBody) {
  const key = JSON.stringify(body);
  const wanted = useDebounced(key, 300);
  const [image, setImage] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    setLoading(true);
    (async () => {
      try {
        const r = await fetch(`/v1/projects/${encodeURIComponent(id)}/preview`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': storedKey() ?? '' },
          body: wanted,
          signal: abort.signal,
        });
        if (!r.ok) {
          throw new Error(restError(await r.json().catch(() => null), r.status));
        }
        const url = URL.createObjectURL(await r.blob());
        setImage((old) => {
          if (old) URL.revokeObjectURL(old);
          return url;
        });
        setError(null);
      } catch (e) {
        if (!abort.signal.aborted) setError(e instanceof Error ? e.message : String(e));
      } finally {
        if (!abort.signal.aborted) setLoading(false);
      }
    })();
    return () => abort.abort();
  }, [id, wanted]);
  return { image, loading: loading || wanted !== key, error };
}

/** A small frame of the source's shape: at most 360 wide, each side at least 100 (the preview's bounds). */
function previewSize(meta: EditorProject['videoMetaData']): { width?: number; height?: number } {
  if (!meta?.width || !meta.height) return {};
  const width = Math.min(360, meta.width);
  const height = Math.round((width * meta.height) / meta.width);
  if (height >= 100) return { width: Math.max(100, width), height };
  return { width: Math.max(100, Math.round((100 * meta.width) / meta.height)), height: 100 };
}

const hex = (c: string | null | undefined, fallback: string) => (c && /^#[0-9a-f]{6}/i.test(c) ? c.slice(0, 7) : fallback);

function StylePanel({ project, catalog, onSaved }: { project: EditorProject; catalog: Catalog | undefined; onSaved: Saved }) {
  const s = project.captionStyle;
  const [template, setTemplate] = useState(project.templateName);
  // one of your themes in place of the template (a template chosen clears it)
  const [themeId, setThemeId] = useState(project.userThemeId ?? '');
  const [made, setMade] = useState<UserTheme[]>([]);
  const themes = [...(catalog?.userThemes ?? []), ...made];
  const [themeName, setThemeName] = useState('');
  const [themeState, createTheme] = useMutation(CREATE_THEME);
  const [fill, setFill] = useState(hex(s.fill, '#ffffff'));
  const [outline, setOutline] = useState(hex(s.outline.color, '#000000'));
  const [active, setActive] = useState(hex(s.activeWord.color, '#ffd400'));
  const [size, setSize] = useState(s.font.size);
  const [position, setPosition] = useState(s.layout.positionY);
  const [styled, setStyled] = useState(project.style != null && Object.keys(project.style).length > 0);
  const hook0 = project.hookTitle;
  const [hookOn, setHookOn] = useState(!!hook0);
  const [hookText, setHookText] = useState(hook0?.text ?? '');
  const [hookTemplate, setHookTemplate] = useState(hook0?.template ?? '');
  const [hookTop, setHookTop] = useState(hook0?.top ?? 10);
  const [hookSize, setHookSize] = useState(hook0?.size ?? 8);
  const duration = project.videoMetaData?.duration ?? 1;
  const firstWord = project.words?.find((w) => w.type === 'word');
  const [time, setTime] = useState(round(firstWord ? (firstWord.startTime + firstWord.endTime) / 2 : 0));
  const { save, saving, error, done } = useSave(project.id, 'style', onSaved);
  const [stills, setStills] = useState(0);
  const still = () => setStills((n) => n + 1);

  const style = styled ? { fill, outline: { color: outline }, activeWord: { color: active }, font: { size }, layout: { positionY: position } } : undefined;
  const hookTitle: HookTitle | false = hookOn
    ? { ...(hookText.trim() ? { text: hookText.trim() } : {}), ...(hookTemplate ? { template: hookTemplate } : {}), top: hookTop, size: hookSize }
    : false;
  const look = themeId ? { userThemeId: themeId } : { templateName: template };
  const preview = usePreview(project.id, { time, ...look, ...(style ? { style } : {}), hookTitle, ...previewSize(project.videoMetaData) });
  const saveTheme = async () => {
    const r = await createTheme({ input: { name: themeName.trim(), basedOn: template, ...(style ? { style } : {}) } });
    const theme = r.data?.createUserTheme as UserTheme | undefined;
    if (!theme) return;
    setMade((m) => [...m, theme]);
    setThemeId(theme.id);
    // the theme holds these changes now: the project's own are cleared when it is saved
    setStyled(false);
    setThemeName('');
  };
  const touch =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setStyled(true);
    };

  return (
    <article className="style-panel" data-testid="style-panel">
      <header>
        <strong>Caption style and hook</strong>
      </header>
      <div className="style-grid">
        <div>
          <fieldset>
            <legend>Caption template</legend>
            <div className="templates" role="radiogroup" aria-label="Caption template">
              {(catalog?.captionTemplates ?? []).map((t, i) => (
                <label key={t.name} className={`template${t.name === template ? ' chosen' : ''}`} title={t.description}>
                  <input
                    type="radio"
                    name="template"
                    value={t.name}
                    checked={!themeId && t.name === template}
                    onChange={() => {
                      setTemplate(t.name);
                      setThemeId('');
                    }}
                  />
                  {/* two stills at a time: each is rendered on its first fetch, and the browser's few connections stay free for the rest */}
                  {i < stills + 2 ? (
                    <img src={t.previewUrl} alt={`${t.name} captions`} width={90} height={160} onLoad={still} onError={still} />
                  ) : (
                    <span className="still-placeholder" />
                  )}
                  <span>{t.name}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset className="themes">
            <legend>Your themes</legend>
            {themes.length > 0 && (
              <div role="radiogroup" aria-label="Your themes">
                {themes.map((t) => (
                  <label key={t.id}>
                    <input type="radio" name="theme" value={t.id} checked={themeId === t.id} onChange={() => setThemeId(t.id)} />
                    {t.name} <small>({t.basedOn ?? 'classic'})</small>
                  </label>
                ))}
              </div>
            )}
            <label>
              Save the template and the changes below as a theme
              <input type="text" value={themeName} maxLength={100} placeholder="Theme name" onChange={(e) => setThemeName(e.target.value)} />
            </label>
            <button type="button" className="secondary" disabled={!themeName.trim() || themeState.fetching} onClick={() => void saveTheme()}>
              Save as a theme
            </button>
            {themeState.error && (
              <small className="error" role="alert">
                {themeState.error.graphQLErrors[0]?.message ?? themeState.error.message}
              </small>
            )}
          </fieldset>
          <fieldset className="theme">
            <legend>Your changes to the style</legend>
            <label>
              Text colour
              <input type="color" value={fill} onChange={(e) => touch(setFill)(e.target.value)} />
            </label>
            <label>
              Outline colour
              <input type="color" value={outline} onChange={(e) => touch(setOutline)(e.target.value)} />
            </label>
            <label>
              Spoken word colour
              <input type="color" value={active} onChange={(e) => touch(setActive)(e.target.value)} />
            </label>
            <label>
              Font size ({size})
              <input type="range" min={16} max={240} value={size} onChange={(e) => touch(setSize)(Number(e.target.value))} />
            </label>
            <label>
              Position from the top ({position} %)
              <input type="range" min={0} max={80} value={position} onChange={(e) => touch(setPosition)(Number(e.target.value))} />
            </label>
            {styled && (
              <button type="button" className="secondary outline" onClick={() => setStyled(false)}>
                Use the template's own style
              </button>
            )}
          </fieldset>
          <fieldset className="theme">
            <legend>Hook title</legend>
            <label>
              <input type="checkbox" checked={hookOn} onChange={(e) => setHookOn(e.target.checked)} />
              Show a hook title
            </label>
            {hookOn && (
              <>
                <label>
                  Hook text
                  <input value={hookText} maxLength={100} placeholder="derived from the words when empty" onChange={(e) => setHookText(e.target.value)} />
                </label>
                <label>
                  Hook template
                  <select value={hookTemplate} onChange={(e) => setHookTemplate(e.target.value)}>
                    <option value="">default</option>
                    {(catalog?.hookTitleTemplates ?? []).map((t) => (
                      <option key={t.name} value={t.name}>
                        {t.name}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  Hook position from the top ({hookTop} %)
                  <input type="range" min={0} max={80} value={hookTop} onChange={(e) => setHookTop(Number(e.target.value))} />
                </label>
                <label>
                  Hook size ({hookSize})
                  <input type="range" min={1} max={80} value={hookSize} onChange={(e) => setHookSize(Number(e.target.value))} />
                </label>
              </>
            )}
          </fieldset>
          <SaveRow
            label="Save style"
            saving={saving}
            done={done}
            error={error}
            onSave={() => save({ ...look, ...(style ? { style } : { style: null }), hookTitle })}
          />
        </div>
        <figure className="preview">
          <div className="preview-frame" aria-busy={preview.loading}>
            {preview.image ? <img src={preview.image} alt="Preview of a frame as it would export" data-testid="preview" /> : <p className="empty">Preview…</p>}
          </div>
          <figcaption>
            <label>
              Preview at {time.toFixed(1)} s
              <input type="range" min={0} max={duration} step={0.1} value={time} onChange={(e) => setTime(Number(e.target.value))} />
            </label>
            {preview.error && (
              <small className="error" role="alert">
                {preview.error}
              </small>
            )}
          </figcaption>
        </figure>
      </div>
    </article>
  );
}

function EffectsPanel({ project, onSaved }: { project: EditorProject; onSaved: Saved }) {
  const [pace, setPace] = useState(project.removeSilencePace ?? '');
  const [badTakes, setBadTakes] = useState(project.removeBadTakes);
  const [zooms, setZooms] = useState(project.magicZooms);
  const [clean, setClean] = useState(project.cleanAudio);
  const { save, saving, error, done } = useSave(project.id, 'effects', onSaved);
  return (
    <article data-testid="effects">
      <header>
        <strong>Effects</strong>
      </header>
      <div className="effects">
        <label>
          Cut pauses
          <select value={pace} onChange={(e) => setPace(e.target.value)}>
            {!project.removeSilencePace && <option value="">keep the pauses</option>}
            <option value="natural">natural</option>
            <option value="fast">fast</option>
            <option value="extra-fast">extra fast</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={badTakes} onChange={(e) => setBadTakes(e.target.checked)} />
          Remove bad takes (keep the last take of a repeated phrase)
        </label>
        <label>
          <input type="checkbox" checked={zooms} onChange={(e) => setZooms(e.target.checked)} />
          Zoom in on stressed words
        </label>
        <label>
          <input type="checkbox" checked={clean} onChange={(e) => setClean(e.target.checked)} />
          Clean audio (denoise and level the voice)
        </label>
      </div>
      <SaveRow
        label="Save effects"
        saving={saving}
        done={done}
        error={error}
        onSave={() => save({ removeBadTakes: badTakes, magicZooms: zooms, cleanAudio: clean, ...(pace ? { removeSilencePace: pace } : {}) })}
      />
    </article>
  );
}

function Timeline({ project, catalog, onSaved }: { project: EditorProject; catalog: Catalog | undefined; onSaved: Saved }) {
  const duration = project.videoMetaData?.duration ?? 10;
  const library = catalog?.userMedia.edges.map((e) => e.node).filter((m) => m.status === 'ready') ?? [];
  const visuals = library.filter((m) => m.type === 'VIDEO' || m.type === 'IMAGE');
  const sounds = [...library.filter((m) => m.type === 'AUDIO').map((m) => ({ id: m.id, name: m.fileName })), ...(catalog?.music ?? [])];
  const [items, setItems] = useState<TimelineItem[]>(() => (Array.isArray(project.items) ? project.items.filter((i) => i.type === 'user-media') : []));
  const [music, setMusic] = useState(project.music?.userMediaId ?? '');
  const [volume, setVolume] = useState(project.music?.volume ?? 30);
  const [adding, setAdding] = useState('');
  const { save, saving, error, done } = useSave(project.id, 'timeline', onSaved);
  const name = (id: string) => library.find((m) => m.id === id)?.fileName ?? id.slice(0, 8);
  const set = (i: number, patch: Partial<TimelineItem>) => setItems(items.map((it, j) => (j === i ? { ...it, ...patch } : it)));
  const add = () => {
    if (!adding) return;
    const start = items.length ? Math.min(duration, Math.max(...items.map((i) => i.endTime))) : 0;
    setItems([...items, { type: 'user-media', userMediaId: adding, startTime: round(start), endTime: round(Math.min(duration, start + 2)) }]);
  };
  const input = { ...(items.length ? { items } : {}), ...(music ? { music: { userMediaId: music, volume } } : {}) };
  return (
    <article data-testid="timeline">
      <header>
        <strong>Items and music</strong>
      </header>
      <div className="timeline" aria-hidden="true">
        {items.map((it, i) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: items have no id of their own
            key={i}
            className="bar"
            style={{ left: `${(it.startTime / duration) * 100}%`, width: `${Math.max(0.5, ((it.endTime - it.startTime) / duration) * 100)}%` }}
          >
            {name(it.userMediaId)}
          </div>
        ))}
        {music && <div className="bar music" style={{ left: 0, width: '100%' }} />}
        <span className="axis-end">{duration.toFixed(1)} s</span>
      </div>
      {items.length > 0 && (
        <table className="items">
          <thead>
            <tr>
              <th>Item</th>
              <th>Start (s)</th>
              <th>End (s)</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {items.map((it, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: items have no id of their own
              <tr key={i}>
                <td>{name(it.userMediaId)}</td>
                <td>
                  <input
                    type="number"
                    aria-label={`Start of ${name(it.userMediaId)}`}
                    min={0}
                    max={duration}
                    step={0.1}
                    value={it.startTime}
                    onChange={(e) => set(i, { startTime: Number(e.target.value) })}
                  />
                </td>
                <td>
                  <input
                    type="number"
                    aria-label={`End of ${name(it.userMediaId)}`}
                    min={0}
                    max={duration}
                    step={0.1}
                    value={it.endTime}
                    onChange={(e) => set(i, { endTime: Number(e.target.value) })}
                  />
                </td>
                <td>
                  <button type="button" className="secondary outline" onClick={() => setItems(items.filter((_, j) => j !== i))}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="effects">
        <label>
          Library item
          <select value={adding} onChange={(e) => setAdding(e.target.value)} disabled={visuals.length === 0}>
            <option value="">{visuals.length ? 'choose a video or image' : 'no video or image in your library'}</option>
            {visuals.map((m) => (
              <option key={m.id} value={m.id}>
                {m.fileName}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="secondary" onClick={add} disabled={!adding}>
          Add item
        </button>
        <label>
          Music
          <select value={music} onChange={(e) => setMusic(e.target.value)}>
            <option value="">none</option>
            {sounds.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
        {music && (
          <label>
            Music volume ({volume})
            <input type="range" min={1} max={100} value={volume} onChange={(e) => setVolume(Number(e.target.value))} />
          </label>
        )}
      </div>
      <SaveRow label="Save items and music" saving={saving} done={done} error={error} onSave={() => save(input)} disabled={Object.keys(input).length === 0} />
    </article>
  );
}

/** A modal dialog: the browser keeps focus in it, Escape closes it, and focus goes back to what opened it. */
export function Dialog({ open, onClose, title, children }: { open: boolean; onClose: () => void; title: string; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} onClose={onClose} aria-label={title}>
      {open && (
        <article>
          <header>
            <strong>{title}</strong>
          </header>
          {children}
        </article>
      )}
    </dialog>
  );
}

const SHAPES = [
  { label: '9:16 (vertical)', width: 1080, height: 1920 },
  { label: '1:1 (square)', width: 1080, height: 1080 },
  { label: '16:9 (landscape)', width: 1920, height: 1080 },
];

/** The export dialog: a shape or a custom size, and the frame rate; the page follows the render live. */
export function RenderDialog({
  projectId,
  fps,
  open,
  onClose,
  onStarted,
}: {
  projectId: string;
  fps: number;
  open: boolean;
  onClose: () => void;
  onStarted: () => void;
}) {
  const [shape, setShape] = useState('0');
  const [width, setWidth] = useState(720);
  const [height, setHeight] = useState(1280);
  const [rate, setRate] = useState(Math.round(fps) || 30);
  const [state, start] = useMutation(EXPORT_WITH);
  const [error, setError] = useState<unknown>(null);
  const size = useMemo(() => (shape === 'custom' ? { width, height } : SHAPES[Number(shape)]), [shape, width, height]);
  const go = async () => {
    setError(null);
    const r = await start({ id: projectId, input: { width: size.width, height: size.height, fps: rate } });
    if (r.error) return setError(r.error);
    onStarted();
    onClose();
  };
  return (
    <Dialog open={open} onClose={onClose} title="Export">
      <fieldset>
        <legend>Shape</legend>
        {SHAPES.map((s, i) => (
          <label key={s.label}>
            <input type="radio" name="shape" value={i} checked={shape === String(i)} onChange={() => setShape(String(i))} />
            {s.label}, {s.width}×{s.height}
          </label>
        ))}
        <label>
          <input type="radio" name="shape" value="custom" checked={shape === 'custom'} onChange={() => setShape('custom')} />
          Custom size
        </label>
      </fieldset>
      {shape === 'custom' && (
        <div className="grid">
          <label>
            Width
            <input type="number" min={100} max={4000} value={width} onChange={(e) => setWidth(Number(e.target.value))} />
          </label>
          <label>
            Height
            <input type="number" min={100} max={4000} value={height} onChange={(e) => setHeight(Number(e.target.value))} />
          </label>
        </div>
      )}
      <label>
        Frames per second
        <input type="number" min={1} max={60} value={rate} onChange={(e) => setRate(Number(e.target.value))} />
      </label>
      <ErrorNote error={error} />
      <footer>
        <button type="button" className="secondary" onClick={onClose}>
          Cancel
        </button>{' '}
        <button type="button" onClick={go} aria-busy={state.fetching} disabled={state.fetching}>
          Start render
        </button>
      </footer>
    </Dialog>
  );
}
