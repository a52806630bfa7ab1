import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery } from 'urql';
import { Dialog } from './dialog.tsx';
import {
  CREATE_PRESET,
  MEDIA_CHOICES,
  MEDIA_KINDS,
  PRESETS,
  PROJECT_NAMES,
  SAVE_PRESET_MEDIA,
  UPDATE_PRESET,
  type MediaChoices,
  type MediaKind,
  type Preset,
} from './documents-manage.ts';
import { ErrorNote, Listing, when } from './ui.tsx';

const KIND_LABEL: Record<MediaKind, string> = {
  captions: 'Captions',
  hookTitle: 'Hook title',
  logo: 'Logo',
  colorFilter: 'Colour filter',
  music: 'Music',
};

const LOOKS = ['warm', 'cool', 'vintage', 'mono', 'high-contrast', 'fade', 'teal-orange', 'vivid'];
const LOGO_POSITIONS = ['top-right', 'top-left', 'bottom-left', 'bottom-right'];

/** Presets: saved from a project, their saved media switched on and off and edited. */
export function Presets() {
  const [{ data, fetching, error }, refetch] = useQuery<{ presets: { edges: { node: Preset }[] } }>({
    query: PRESETS,
    variables: { first: 50 },
    requestPolicy: 'cache-and-network',
  });
  // what the saved-media forms choose from, read once for every preset
  const [{ data: choices }] = useQuery<MediaChoices>({ query: MEDIA_CHOICES, requestPolicy: 'cache-and-network' });
  const presets = data?.presets.edges.map((e) => e.node) ?? [];
  const reload = () => refetch({ requestPolicy: 'network-only' });
  return (
    <>
      <SaveFromProject onSaved={reload} />
      <Listing
        title="Presets"
        fetching={fetching}
        error={error}
        onRefresh={reload}
        empty={data && presets.length === 0 ? 'No preset yet: save a project’s settings as one above.' : null}
        columns={['Preset', 'Saved media (applied when ticked)', 'Other settings']}
      >
        {presets.map((p) => (
          <PresetRow key={p.id} preset={p} choices={choices} />
        ))}
      </Listing>
    </>
  );
}

function SaveFromProject({ onSaved }: { onSaved: () => void }) {
  const [{ data }] = useQuery<{ projects: { edges: { node: { id: string; title: string } }[] } }>({
    query: PROJECT_NAMES,
    requestPolicy: 'cache-and-network',
  });
  const [{ fetching }, create] = useMutation(CREATE_PRESET);
  const [projectId, setProjectId] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const projects = data?.projects.edges.map((e) => e.node) ?? [];
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setSaved(null);
    const r = await create({ projectId, name: name.trim(), description: description.trim() || null });
    if (r.error) return setError(r.error);
    setSaved(`Preset “${name.trim()}” saved.`);
    setName('');
    setDescription('');
    onSaved();
  };
  return (
    <section aria-labelledby="save-preset">
      <h2 id="save-preset">Save a project as a preset</h2>
      <form onSubmit={submit} aria-busy={fetching}>
        <div className="grid">
          <div>
            <label htmlFor="preset-project">Project</label>
            <select id="preset-project" name="projectId" required value={projectId} onChange={(e) => setProjectId(e.target.value)}>
              <option value="">Choose a project…</option>
              {projects.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.title}
                </option>
              ))}
            </select>
          </div>
          <label>
            Preset name
            <input name="presetName" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            Description (optional)
            <input name="presetDescription" maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
          </label>
        </div>
        <ErrorNote error={error} />
        {saved && (
          <p className="ok-note" role="status">
            {saved}
          </p>
        )}
        <button type="submit" disabled={fetching || !projectId || !name.trim()}>
          Save as preset
        </button>
      </form>
    </section>
  );
}

/** A short line of what a saved medium holds. */
function summary(kind: MediaKind, saved: Record<string, unknown> | null, choices: MediaChoices | undefined): string {
  if (!saved) return 'nothing saved';
  const fileName = (id: unknown) =>
    choices?.userMedia.edges.find((e) => e.node.id === id)?.node.fileName ?? choices?.music.find((m) => m.id === id)?.name ?? 'a library file';
  switch (kind) {
    case 'captions':
      return saved.userThemeId
        ? `theme ${choices?.userThemes.find((t) => t.id === saved.userThemeId)?.name ?? ''}`.trim()
        : `template ${String(saved.templateName ?? 'of the project')}`;
    case 'hookTitle':
      return [saved.text ? `“${String(saved.text)}”` : 'from the words', saved.template ? String(saved.template) : null].filter(Boolean).join(', ');
    case 'logo':
      return `${fileName(saved.userMediaId)}, ${String(saved.position ?? 'top-right')}`;
    case 'colorFilter':
      return saved.name ? `${String(saved.name)}${saved.intensity != null ? ` ${String(saved.intensity)}%` : ''}` : `LUT ${fileName(saved.userMediaId)}`;
    case 'music':
      return `${fileName(saved.userMediaId)}, volume ${String(saved.volume ?? '')}`;
  }
}

function PresetRow({ preset: p, choices }: { preset: Preset; choices: MediaChoices | undefined }) {
  const [update, runUpdate] = useMutation<{ updatePreset: Preset }>(UPDATE_PRESET);
  const [saving, runSave] = useMutation<{ savePresetMedia: Preset }>(SAVE_PRESET_MEDIA);
  const [editing, setEditing] = useState<MediaKind | null>(null);
  const [error, setError] = useState<unknown>(null);
  // a switch shows its new position while the change is sent
  const [switching, setSwitching] = useState<Record<string, boolean>>({});
  const toggle = async (input: Record<string, boolean>) => {
    setError(null);
    setSwitching((s) => ({ ...s, ...input }));
    const r = await runUpdate({ id: p.id, input });
    if (r.error) {
      setError(r.error);
      setSwitching((s) => Object.fromEntries(Object.entries(s).filter(([k]) => !(k in input))));
    }
  };
  // once the list read again agrees, the preset's own values show
  useEffect(() => {
    setSwitching((s) => {
      const left = Object.entries(s).filter(([k, v]) => p[k as keyof Preset] !== v);
      return left.length === Object.keys(s).length ? s : Object.fromEntries(left);
    });
  }, [p]);
  const on = (field: keyof Preset & string) => switching[field] ?? (p[field] as boolean);
  const save = async (input: Partial<Record<MediaKind, Record<string, unknown> | null>>) => {
    setError(null);
    const r = await runSave({ presetId: p.id, input });
    if (r.error) {
      setError(r.error);
      return false;
    }
    return true;
  };
  const busy = update.fetching || saving.fetching;
  return (
    <tr data-preset={p.id}>
      <td>
        <strong>{p.name}</strong>
        {p.description && (
          <>
            <br />
            <small>{p.description}</small>
          </>
        )}
        <br />
        <small>
          {p.sourceProjectId ? (
            <>
              from <a href={`#/projects/${p.sourceProjectId}`}>its project</a>,{' '}
            </>
          ) : null}
          saved {when(p.createdAt)}
        </small>
      </td>
      <td>
        <fieldset className="saved-media" aria-busy={busy}>
          <legend className="visually-hidden">Saved media of {p.name}</legend>
          {MEDIA_KINDS.map((kind) => (
            <div key={kind} className="medium" data-medium={kind}>
              <label>
                <input
                  type="checkbox"
                  role="switch"
                  aria-checked={on(kind)}
                  checked={on(kind)}
                  disabled={!p.configured[kind] && !p[kind]}
                  onChange={(e) => void toggle({ [kind]: e.target.checked })}
                />
                {KIND_LABEL[kind]}
              </label>
              <small className="medium-summary">{summary(kind, p.savedMedia[kind], choices)}</small>
              <span className="medium-actions">
                <button
                  type="button"
                  className="secondary outline small"
                  aria-label={`Edit ${KIND_LABEL[kind].toLowerCase()} of ${p.name}`}
                  onClick={() => {
                    setError(null);
                    setEditing(kind);
                  }}
                >
                  Edit
                </button>
                {p.configured[kind] && (
                  <button
                    type="button"
                    className="secondary outline small"
                    aria-label={`Remove ${KIND_LABEL[kind].toLowerCase()} of ${p.name}`}
                    onClick={() => void (busy || save({ [kind]: null }))}
                  >
                    Remove
                  </button>
                )}
              </span>
            </div>
          ))}
        </fieldset>
        {!editing && <ErrorNote error={error} />}
        {editing && (
          <MediumEditor
            kind={editing}
            presetName={p.name}
            saved={p.savedMedia[editing]}
            choices={choices}
            busy={saving.fetching}
            onSave={async (value) => {
              if (await save({ [editing]: value })) setEditing(null);
            }}
            onClose={() => setEditing(null)}
            error={error}
          />
        )}
      </td>
      <td>
        {(['magicZooms', 'cleanAudio', 'magicBrolls'] as const).map((f) => (
          <label key={f}>
            <input type="checkbox" role="switch" aria-checked={on(f)} checked={on(f)} onChange={(e) => void toggle({ [f]: e.target.checked })} />
            {{ magicZooms: 'Zooms', cleanAudio: 'Clean audio', magicBrolls: 'AI B-roll' }[f]}
          </label>
        ))}
      </td>
    </tr>
  );
}

const num = (v: FormDataEntryValue | null) => (v == null || v === '' ? undefined : Number(v));
const str = (v: FormDataEntryValue | null) => (v == null || v === '' ? undefined : String(v));
const val = (saved: Record<string, unknown> | null, k: string) => (saved?.[k] == null ? '' : String(saved[k]));

/** The form of one saved medium, in a dialog. */
function MediumEditor(props: {
  kind: MediaKind;
  presetName: string;
  saved: Record<string, unknown> | null;
  choices: MediaChoices | undefined;
  busy: boolean;
  error: unknown;
  onSave: (value: Record<string, unknown>) => Promise<void>;
  onClose: () => void;
}) {
  const { kind, saved, choices } = props;
  const library = (type: string) => choices?.userMedia.edges.map((e) => e.node).filter((m) => m.type === type && m.status === 'ready') ?? [];
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const clean = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
    let value: Record<string, unknown>;
    if (kind === 'captions') {
      const look = String(f.get('look') ?? '');
      value = clean({
        templateName: look.startsWith('template:') ? look.slice(9) : undefined,
        userThemeId: look.startsWith('theme:') ? look.slice(6) : undefined,
        captionPositionY: num(f.get('captionPositionY')),
        captionPositionX: num(f.get('captionPositionX')),
      });
    } else if (kind === 'hookTitle') {
      value = clean({ text: str(f.get('text')), template: str(f.get('template')), top: num(f.get('top')), size: num(f.get('size')) });
    } else if (kind === 'logo') {
      value = clean({
        userMediaId: str(f.get('userMediaId')),
        position: str(f.get('position')),
        sizePercent: num(f.get('sizePercent')),
        opacity: num(f.get('opacity')),
      });
    } else if (kind === 'colorFilter') {
      const look = String(f.get('look') ?? '');
      value = clean({
        name: look.startsWith('name:') ? look.slice(5) : undefined,
        userMediaId: look.startsWith('lut:') ? look.slice(4) : undefined,
        intensity: num(f.get('intensity')),
      });
    } else {
      value = clean({ userMediaId: str(f.get('userMediaId')), volume: num(f.get('volume')), fade: f.get('fade') === 'on' });
    }
    void props.onSave(value);
  };
  let fields: ReactNode;
  if (kind === 'captions') {
    const current = saved?.userThemeId ? `theme:${String(saved.userThemeId)}` : saved?.templateName ? `template:${String(saved.templateName)}` : '';
    fields = (
      <>
        <label>
          Caption look
          <select name="look" defaultValue={current} required>
            <option value="">Choose…</option>
            <optgroup label="Templates">
              {choices?.captionTemplates.map((t) => (
                <option key={t.name} value={`template:${t.name}`}>
                  {t.name}
                </option>
              ))}
            </optgroup>
            {!!choices?.userThemes.length && (
              <optgroup label="Your themes">
                {choices.userThemes.map((t) => (
                  <option key={t.id} value={`theme:${t.id}`}>
                    {t.name}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </label>
        <div className="grid">
          <label>
            Vertical position (% from the top, 0-80)
            <input name="captionPositionY" type="number" min={0} max={80} step="any" defaultValue={val(saved, 'captionPositionY')} />
          </label>
          <label>
            Horizontal position (%, 50 is centred)
            <input name="captionPositionX" type="number" min={0} max={100} step="any" defaultValue={val(saved, 'captionPositionX')} />
          </label>
        </div>
      </>
    );
  } else if (kind === 'hookTitle') {
    fields = (
      <>
        <label>
          Hook text (left empty: drawn from each project’s words)
          <input name="text" maxLength={100} defaultValue={val(saved, 'text')} />
        </label>
        <label>
          Hook template
          <select name="template" defaultValue={val(saved, 'template')}>
            <option value="">The default</option>
            {choices?.hookTitleTemplates.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <div className="grid">
          <label>
            Top (% from the top, 0-80)
            <input name="top" type="number" min={0} max={80} step="any" defaultValue={val(saved, 'top')} />
          </label>
          <label>
            Size (0-80)
            <input name="size" type="number" min={0} max={80} step="any" defaultValue={val(saved, 'size')} />
          </label>
        </div>
      </>
    );
  } else if (kind === 'logo') {
    fields = (
      <>
        <label>
          Logo image (from your library)
          <select name="userMediaId" required defaultValue={val(saved, 'userMediaId')}>
            <option value="">Choose an image…</option>
            {library('IMAGE').map((m) => (
              <option key={m.id} value={m.id}>
                {m.fileName}
              </option>
            ))}
          </select>
        </label>
        <div className="grid">
          <label>
            Corner
            <select name="position" defaultValue={val(saved, 'position') || 'top-right'}>
              {LOGO_POSITIONS.map((p) => (
                <option key={p}>{p}</option>
              ))}
            </select>
          </label>
          <label>
            Width (% of the frame, 5-50)
            <input name="sizePercent" type="number" min={5} max={50} defaultValue={val(saved, 'sizePercent')} />
          </label>
          <label>
            Opacity (0-100)
            <input name="opacity" type="number" min={0} max={100} defaultValue={val(saved, 'opacity')} />
          </label>
        </div>
      </>
    );
  } else if (kind === 'colorFilter') {
    const current = saved?.userMediaId ? `lut:${String(saved.userMediaId)}` : saved?.name ? `name:${String(saved.name)}` : '';
    fields = (
      <>
        <label>
          Look
          <select name="look" required defaultValue={current}>
            <option value="">Choose…</option>
            <optgroup label="Named looks">
              {LOOKS.map((l) => (
                <option key={l} value={`name:${l}`}>
                  {l}
                </option>
              ))}
            </optgroup>
            {library('LUT').length > 0 && (
              <optgroup label="LUTs of your library">
                {library('LUT').map((m) => (
                  <option key={m.id} value={`lut:${m.id}`}>
                    {m.fileName}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </label>
        <label>
          Intensity (0-100)
          <input name="intensity" type="number" min={0} max={100} defaultValue={val(saved, 'intensity')} />
        </label>
      </>
    );
  } else {
    fields = (
      <>
        <label>
          Track
          <select name="userMediaId" required defaultValue={val(saved, 'userMediaId')}>
            <option value="">Choose a track…</option>
            {library('AUDIO').length > 0 && (
              <optgroup label="Your library">
                {library('AUDIO').map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.fileName}
                  </option>
                ))}
              </optgroup>
            )}
            <optgroup label="Music catalogue">
              {choices?.music.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </optgroup>
          </select>
        </label>
        <label>
          Volume (1-100)
          <input name="volume" type="number" min={1} max={100} required defaultValue={val(saved, 'volume') || '30'} />
        </label>
        <label>
          <input name="fade" type="checkbox" defaultChecked={saved?.fade !== false} /> Fade in and out
        </label>
      </>
    );
  }
  const formId = `medium-${kind}`;
  return (
    <Dialog
      open
      title={`${KIND_LABEL[kind]} of ${props.presetName}`}
      onClose={props.onClose}
      footer={
        <>
          <button type="button" className="secondary" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} aria-busy={props.busy} disabled={props.busy}>
            Save
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={submit}>
        {fields}
      </form>
      <ErrorNote error={props.error} />
    </Dialog>
  );
}
