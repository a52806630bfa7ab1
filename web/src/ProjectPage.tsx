import { useEffect, useState } from 'react';
import { useClient, useMutation, useQuery } from 'urql';
import { saveText } from './api.ts';
import { CAPTIONS, EXPORT_PROJECT, PROJECT, TERMINAL, type Export, type MagicClip, type Project, type Word } from './documents.ts';
import { Dialog, Editor, RenderDialog } from './Editor.tsx';
import { DELETE_PROJECT } from './documents-editor.ts';
import { stepLabel, useProjectLive } from './live.ts';
import { PublishForm } from './Publish.tsx';
import { go } from './route.ts';
import { clock, Empty, ErrorNote, Progress, seconds, Status, when } from './ui.tsx';

const slug = (title: string) =>
  title
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'project';

export function ProjectPage({ id }: { id: string }) {
  const client = useClient();
  const [{ data, error }, refetch] = useQuery<{ project: Project }>({ query: PROJECT, variables: { id }, requestPolicy: 'cache-and-network' });
  const project = data?.project;
  const reread = () => refetch({ requestPolicy: 'network-only' });
  const { live, error: liveError } = useProjectLive(project, reread);
  // without the subscription (a socket refused on the way), the page reads the project again now and then
  // biome-ignore lint/correctness/useExhaustiveDependencies: the timer lives as long as the error, whatever reread is at each render
  useEffect(() => {
    if (!liveError) return;
    const timer = setInterval(reread, 3000);
    return () => clearInterval(timer);
  }, [liveError]);
  const [exporting, startExport] = useMutation(EXPORT_PROJECT);
  const [exportError, setExportError] = useState<unknown>(null);
  const [captionError, setCaptionError] = useState<unknown>(null);
  const [rendering, setRendering] = useState(false);

  if (!project) {
    return (
      <section aria-busy={!error}>
        <ErrorNote error={error} />
      </section>
    );
  }
  const status = live?.status ?? project.status;
  const stage = live ? live.stage : project.progress?.stage;
  const percent = live ? live.percent : project.progress?.percent;
  const failureReason = live ? live.failureReason : project.failureReason;
  const working = !TERMINAL.has(status);

  const exportNow = async () => {
    setExportError(null);
    const r = await startExport({ id: project.id });
    if (r.error) setExportError(r.error);
    reread();
  };
  const captions = async (format: 'srt' | 'vtt') => {
    setCaptionError(null);
    const r = await client.query<{ project: { captions: string | null } }>(CAPTIONS, { id: project.id, format }, { requestPolicy: 'network-only' }).toPromise();
    if (r.error || r.data?.project.captions == null) return setCaptionError(r.error ?? new Error('The project has no transcript yet'));
    saveText(r.data.project.captions, `${slug(project.title)}.${format}`, format === 'vtt' ? 'text/vtt' : 'application/x-subrip');
  };

  return (
    <section data-project={project.id}>
      <hgroup>
        <h2>{project.title}</h2>
        <p>
          {project.kind === 'magic_clips' ? 'Magic clips' : 'Captioned edit'} · {project.language} · created {when(project.createdAt)}
          {project.videoMetaData && ` · source ${project.videoMetaData.width}×${project.videoMetaData.height}, ${seconds(project.videoMetaData.duration)}`}
        </p>
      </hgroup>
      <article>
        <p>
          Status <Status value={status} testId="project-status" />
          {live && (
            <small className="live" title="as the service reports it">
              {' '}
              live
            </small>
          )}
        </p>
        {working && <Progress label={stepLabel(status, stage, live?.clipsDone, live?.clipsTotal)} percent={percent} testId="project-progress" />}
        {failureReason && <p className="error">{failureReason}</p>}
        <ErrorNote error={liveError} />
      </article>

      {project.kind === 'edit' && (
        <article>
          <header className="title-row">
            <strong>Video</strong>
            <span>
              <button
                type="button"
                onClick={exportNow}
                disabled={working || exporting.fetching || project.transcriptionStatus !== 'COMPLETED'}
                aria-busy={exporting.fetching}
              >
                Export
              </button>{' '}
              <button type="button" className="secondary" onClick={() => setRendering(true)} disabled={working || project.transcriptionStatus !== 'COMPLETED'}>
                Size and frame rate…
              </button>
            </span>
          </header>
          <ErrorNote error={exportError} />
          {project.directUrl ? (
            <video key={project.directUrl} src={project.directUrl} controls preload="metadata" playsInline data-testid="player" />
          ) : (
            <Empty>{working ? 'The video appears here once it is rendered.' : 'Not exported yet.'}</Empty>
          )}
          <p className="actions">
            {project.downloadUrl && (
              <a href={project.downloadUrl} role="button" className="secondary" download>
                Download video
              </a>
            )}
            <button type="button" className="secondary outline" onClick={() => captions('srt')} disabled={project.transcriptionStatus !== 'COMPLETED'}>
              Captions (SRT)
            </button>
            <button type="button" className="secondary outline" onClick={() => captions('vtt')} disabled={project.transcriptionStatus !== 'COMPLETED'}>
              Captions (VTT)
            </button>
          </p>
          <ErrorNote error={captionError} />
          <Exports exports={project.exports} live={status === 'exporting' ? percent : undefined} />
          <RenderDialog projectId={project.id} fps={project.videoMetaData?.fps ?? 30} open={rendering} onClose={() => setRendering(false)} onStarted={reread} />
        </article>
      )}

      {project.kind === 'edit' && project.transcriptionStatus === 'COMPLETED' && <Editor id={project.id} onSaved={reread} />}

      {project.kind === 'edit' && project.downloadUrl && <PublishForm projectId={project.id} />}

      {project.kind === 'magic_clips' && project.clipsNote && <p className="note">{project.clipsNote}</p>}

      {project.kind === 'magic_clips' && <Clips clips={project.magicClips} working={working} topic={project.topic} shape={project.aspectRatio ?? '9:16'} />}

      {project.words && project.words.length > 0 && <Transcript words={project.words} />}

      <DeleteProject id={project.id} title={project.title} />
    </section>
  );
}

/** The project's delete button, asking first; back to the list once it is gone. */
function DeleteProject({ id, title }: { id: string; title: string }) {
  const [asking, setAsking] = useState(false);
  const [state, remove] = useMutation(DELETE_PROJECT);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setError(null);
    const r = await remove({ id });
    if (r.error) return setError(r.error);
    setAsking(false);
    go('projects');
  };
  return (
    <div className="danger-zone">
      <button type="button" className="secondary outline" onClick={() => setAsking(true)}>
        Delete project
      </button>
      <Dialog open={asking} onClose={() => setAsking(false)} title="Delete this project?">
        <p>
          “{title}” and its files (source, renders, previews) are deleted for good, and its scheduled publications are cancelled with their credits given back.
          Posts already published stay listed.
        </p>
        <ErrorNote error={error} />
        <footer>
          <button type="button" className="secondary" onClick={() => setAsking(false)}>
            Keep it
          </button>{' '}
          <button type="button" className="danger" onClick={confirm} aria-busy={state.fetching} disabled={state.fetching}>
            Delete for good
          </button>
        </footer>
      </Dialog>
    </div>
  );
}

function Exports({ exports, live }: { exports: Export[]; live: number | null | undefined }) {
  if (exports.length === 0) return null;
  return (
    <details open>
      <summary>Exports ({exports.length})</summary>
      <table className="striped" data-testid="exports">
        <thead>
          <tr>
            <th>Started</th>
            <th>Status</th>
            <th>Size</th>
            <th>Length</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          {exports.map((x, i) => {
            const running = !TERMINAL.has(x.status);
            // the newest export is the running one: its progress comes live with the project's
            const progress = running && i === 0 && live != null ? live : x.progress;
            return (
              <tr key={x.id} data-export={x.id}>
                <td>{when(x.createdAt)}</td>
                <td>
                  <Status value={x.status} />
                  {running && <Progress label="render" percent={progress} />}
                  {x.failureReason && <small className="error"> {x.failureReason}</small>}
                </td>
                <td>
                  {x.width}×{x.height} at {x.fps} fps
                </td>
                <td>{seconds(x.duration)}</td>
                <td>{x.downloadUrl && <a href={x.downloadUrl}>download</a>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </details>
  );
}

const SCORES: [keyof MagicClip['viralityScores'], string][] = [
  ['hook_strength', 'hook'],
  ['emotional_impact', 'emotion'],
  ['shareability', 'shareability'],
  ['story_quality', 'story'],
];

/** The clips, best first (about the topic first, when one was given), each with its preview (played on hover), its scores and why. */
function Clips({ clips, working, topic, shape }: { clips: MagicClip[]; working: boolean; topic: string | null; shape: string }) {
  const aspectRatio = shape.replace(':', ' / ');
  const [order, setOrder] = useState<'score' | 'source'>('score');
  if (clips.length === 0) return <Empty>{working ? 'The clips appear here as they are made.' : 'No clip was made.'}</Empty>;
  const shown = order === 'score' ? [...clips].sort((a, b) => a.rank - b.rank) : clips;
  return (
    <section>
      <div className="title-row">
        <h3>Clips ({clips.length})</h3>
        <select value={order} onChange={(e) => setOrder(e.target.value as 'score' | 'source')} aria-label="Order">
          <option value="score">{topic ? `about “${topic}” first, then best score` : 'best score first'}</option>
          <option value="source">in the order of the source</option>
        </select>
      </div>
      <div className="gallery">
        {shown.map((c) => (
          <article key={c.id} className="clip" data-clip={c.id}>
            {c.previewUrl ? (
              <video
                style={{ aspectRatio }}
                src={c.previewUrl}
                muted
                loop
                playsInline
                preload="metadata"
                onMouseEnter={(e) => void e.currentTarget.play().catch(() => {})}
                onMouseLeave={(e) => e.currentTarget.pause()}
              />
            ) : (
              <div className="placeholder" style={{ aspectRatio }}>
                <Status value={c.status} />
              </div>
            )}
            <div className="score" title="virality score, 0-100">
              {c.viralityScores.total}
            </div>
            <strong>
              <span className="rank" title="its rank among the clips">
                #{c.rank}
              </span>{' '}
              {c.title}
            </strong>
            <small>
              {clock(c.startTime)}–{clock(c.endTime)} · {seconds(c.duration)}
            </small>
            {c.hookTitle && <small className="hook">Hook: “{c.hookTitle}”</small>}
            {c.viralityReasons.length > 0 && (
              <ul className="reasons" aria-label="Why it scored so">
                {c.viralityReasons.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            )}
            <ul className="scores">
              {SCORES.map(([k, label]) => (
                <li key={k}>
                  <span>{label}</span>
                  <meter min={0} max={100} value={c.viralityScores[k]} />
                  <span>{c.viralityScores[k]}</span>
                </li>
              ))}
            </ul>
            {c.failureReason && <small className="error">{c.failureReason}</small>}
            <p className="actions">
              {c.directUrl && (
                <a href={c.directUrl} target="_blank" rel="noreferrer">
                  play
                </a>
              )}
              {c.downloadUrl && <a href={c.downloadUrl}>download</a>}
            </p>
          </article>
        ))}
      </div>
    </section>
  );
}

/** The transcript as text, a line per pause, each with its start time. */
function Transcript({ words }: { words: Word[] }) {
  const lines: { start: number; text: string }[] = [];
  let current: { start: number; text: string } | null = null;
  for (const w of words) {
    if (w.type === 'silence') {
      if (w.endTime - w.startTime >= 0.7) current = null;
      continue;
    }
    if (!current) lines.push((current = { start: w.startTime, text: '' }));
    current.text += w.type === 'punctuation' || !current.text ? w.text : ` ${w.text}`;
  }
  return (
    <details open>
      <summary>Transcript</summary>
      <div className="transcript" data-testid="transcript">
        {lines.map((l) => (
          <p key={l.start}>
            <time>{clock(l.start)}</time> {l.text}
          </p>
        ))}
      </div>
    </details>
  );
}
