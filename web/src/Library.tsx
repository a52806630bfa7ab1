import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { uploadMutation, type Upload, type UploadProgress } from './api.ts';
import { Confirm } from './dialog.tsx';
import { CREATE_USER_MEDIA, DELETE_USER_MEDIA, UPLOAD_USER_MEDIA, USER_MEDIA, type MediaType, type PageInfo, type UserMedia } from './documents-manage.ts';
import { ErrorNote, Listing, useRereadWhile, when } from './ui.tsx';

const PAGE = 25;

export const bytes = (n: unknown) =>
  typeof n !== 'number' ? null : n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;

const MEDIA_STATUS = { ready: 'ok', failed: 'bad', pending: 'busy' } as const;

/** A type's mark where there is no picture to show: plain characters, drawn with the system's fonts. */
const ICONS: Record<MediaType, string> = { VIDEO: '▶', AUDIO: '♪', IMAGE: '▢', FONT: 'Aa', LUT: 'LUT' };

/** An entry's metadata as short facts: "2.0 s", "320×240", "family Inter", "LUT 33³", "12.4 KB". */
export function facts(m: UserMedia): string[] {
  const d = m.metadata as Record<string, number | string | undefined>;
  const out: string[] = [];
  if (typeof d.width === 'number' && typeof d.height === 'number') out.push(`${d.width}×${d.height}`);
  if (typeof d.duration === 'number') out.push(`${d.duration.toFixed(1)} s`);
  if (d.family) out.push(`family ${d.family}${d.style ? ` ${d.style}` : ''}`);
  if (typeof d.glyphs === 'number') out.push(`${d.glyphs} glyphs`);
  if (typeof d.lutSize === 'number') out.push(`LUT ${d.lutSize}³`);
  if (d.title) out.push(String(d.title));
  const size = bytes(d.fileSize);
  if (size) out.push(size);
  return out;
}

/** The library: files sent from this browser or fetched from a URL, listed with their metadata. */
export function Library({ apiKey }: { apiKey: string }) {
  const [after, setAfter] = useState<string[]>([]);
  const cursor = after.at(-1) ?? null;
  const [{ data, fetching, error }, refetch] = useQuery<{ userMedia: { edges: { node: UserMedia }[]; pageInfo: PageInfo } }>({
    query: USER_MEDIA,
    variables: { first: PAGE, after: cursor },
    requestPolicy: 'cache-and-network',
  });
  const entries = data?.userMedia.edges.map((e) => e.node) ?? [];
  const reload = useCallback(() => refetch({ requestPolicy: 'network-only' }), [refetch]);
  // a file being fetched or probed: read again until it is ready or failed
  const pending = entries.some((e) => e.status === 'pending');
  useRereadWhile(pending, reload);

  return (
    <>
      <AddMedia apiKey={apiKey} onAdded={reload} />
      <Listing
        title="Library"
        fetching={fetching}
        error={error}
        onRefresh={reload}
        empty={data && entries.length === 0 && !cursor ? 'Your library is empty: upload a file or add one by its URL above.' : null}
        columns={['Preview', 'File', 'Type', 'Status', 'Details', 'Added', '']}
      >
        {entries.map((m) => (
          <MediaRow key={m.id} media={m} onDeleted={reload} />
        ))}
      </Listing>
      <Pager
        label="Library pages"
        hasPrevious={after.length > 0}
        hasNext={!!data?.userMedia.pageInfo.hasNextPage}
        onPrevious={() => setAfter(after.slice(0, -1))}
        onNext={() => setAfter([...after, data!.userMedia.pageInfo.endCursor!])}
      />
    </>
  );
}

/** Previous and next buttons of a list read page by page. */
export function Pager(props: { label: string; hasPrevious: boolean; hasNext: boolean; onPrevious: () => void; onNext: () => void }) {
  if (!props.hasPrevious && !props.hasNext) return null;
  return (
    <nav aria-label={props.label} className="pager">
      <button type="button" className="secondary outline" disabled={!props.hasPrevious} onClick={props.onPrevious}>
        Newer
      </button>
      <button type="button" className="secondary outline" disabled={!props.hasNext} onClick={props.onNext}>
        Older
      </button>
    </nav>
  );
}

function AddMedia({ apiKey, onAdded }: { apiKey: string; onAdded: () => void }) {
  const [, addByUrl] = useMutation(CREATE_USER_MEDIA);
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState('');
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [added, setAdded] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useRef<Upload<unknown> | null>(null);
  useEffect(() => () => upload.current?.abort(), []);

  const run = async (what: string, work: () => Promise<unknown>) => {
    setError(null);
    setAdded(null);
    setBusy(true);
    try {
      await work();
      setAdded(what);
      onAdded();
    } catch (err) {
      setError(err);
    } finally {
      upload.current = null;
      setProgress(null);
      setBusy(false);
    }
  };
  const send = (e: FormEvent) => {
    e.preventDefault();
    if (!file) return setError(new Error('Choose a file'));
    void run(`${file.name} was added to your library.`, async () => {
      setProgress({ loaded: 0, total: file.size });
      upload.current = uploadMutation(apiKey, UPLOAD_USER_MEDIA, {}, 'file', file, setProgress);
      await upload.current.done;
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
    });
  };
  const fetchUrl = (e: FormEvent) => {
    e.preventDefault();
    void run('The file is being fetched: it shows as ready once it is checked.', async () => {
      const r = await addByUrl({ url: url.trim() });
      if (r.error) throw r.error;
      setUrl('');
    });
  };
  const percent = progress?.total ? (100 * progress.loaded) / progress.total : 0;
  return (
    <section aria-labelledby="add-media">
      <h2 id="add-media">Add to the library</h2>
      <div className="grid">
        <form onSubmit={send} aria-busy={busy}>
          <label>
            File (video, audio, image, TTF or OTF font, .cube LUT)
            <input
              ref={fileInput}
              name="mediaFile"
              type="file"
              accept="video/*,audio/*,image/*,.ttf,.otf,.cube"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </label>
          <button type="submit" disabled={busy || !file}>
            Upload
          </button>
        </form>
        <form onSubmit={fetchUrl} aria-busy={busy}>
          <label>
            File URL (public, directly downloadable)
            <input name="mediaUrl" type="url" placeholder="https://…" required value={url} onChange={(e) => setUrl(e.target.value)} />
          </label>
          <button type="submit" className="secondary" disabled={busy || !url.trim()}>
            Add by URL
          </button>
        </form>
      </div>
      {progress && (
        <div className="progress" data-testid="media-upload-progress">
          <small>Uploading — {Math.round(percent)}%</small>
          <progress value={percent} max={100} />
        </div>
      )}
      <ErrorNote error={error} />
      {added && (
        <p className="ok-note" role="status">
          {added}
        </p>
      )}
    </section>
  );
}

function MediaRow({ media: m, onDeleted }: { media: UserMedia; onDeleted: () => void }) {
  const [{ fetching }, remove] = useMutation(DELETE_USER_MEDIA);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setError(null);
    const r = await remove({ id: m.id });
    setAsking(false);
    // refused while something uses it: the answer names what
    if (r.error) setError(new Error(`${m.fileName} was not deleted: ${r.error.message.replace(/^\[GraphQL\] (Invalid request: id: )?/, '')}`));
    else onDeleted();
  };
  return (
    <>
      <tr data-media={m.id}>
        <td>
          {m.type === 'IMAGE' && m.status === 'ready' ? (
            <img className="thumb" src={m.url} alt="" loading="lazy" />
          ) : (
            <span className="thumb icon" aria-hidden="true">
              {ICONS[m.type]}
            </span>
          )}
        </td>
        <td>
          <span className="file-name">{m.fileName}</span>
        </td>
        <td>{m.type.toLowerCase()}</td>
        <td>
          <span className={`status ${MEDIA_STATUS[m.status]}`} data-status={m.status}>
            {m.status}
          </span>
          {m.failureReason && <small className="error"> {m.failureReason}</small>}
        </td>
        <td data-testid="media-facts">{facts(m).join(' · ') || '—'}</td>
        <td>{when(m.createdAt)}</td>
        <td>
          <button type="button" className="secondary outline" aria-label={`Delete ${m.fileName}`} onClick={() => setAsking(true)}>
            Delete
          </button>
          <Confirm
            open={asking}
            title={`Delete ${m.fileName}?`}
            confirm="Delete"
            busy={fetching}
            onConfirm={() => void confirm()}
            onCancel={() => setAsking(false)}
          >
            <p>The file is removed from your library and from storage. A project, preset or theme that uses it keeps it from being deleted.</p>
          </Confirm>
        </td>
      </tr>
      {!!error && (
        <tr className="row-note" data-media-error={m.id}>
          <td colSpan={7}>
            <ErrorNote error={error} />
          </td>
        </tr>
      )}
    </>
  );
}
