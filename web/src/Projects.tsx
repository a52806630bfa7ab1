import { useQuery } from 'urql';
import { PROJECTS, TERMINAL, type ProjectSummary } from './documents.ts';
import { stepLabel, useProjectLive } from './live.ts';
import { Empty, ErrorNote, Progress, Status, when } from './ui.tsx';

export function Projects() {
  const [{ data, fetching, error }, refetch] = useQuery<{ projects: { edges: { node: ProjectSummary }[] } }>({
    query: PROJECTS,
    variables: { first: 50 },
    requestPolicy: 'cache-and-network',
  });
  const projects = data?.projects.edges.map((e) => e.node) ?? [];
  return (
    <section>
      <hgroup className="title-row">
        <h2>Projects</h2>
        <p>
          <a href="#/new" role="button">
            New project
          </a>{' '}
          <button className="secondary outline" aria-busy={fetching} onClick={() => refetch({ requestPolicy: 'network-only' })}>
            Refresh
          </button>
        </p>
      </hgroup>
      <ErrorNote error={error} />
      {data && projects.length === 0 ? (
        <Empty>No project yet: upload a video or give its URL under New project.</Empty>
      ) : (
        <table className="striped">
          <thead>
            <tr>
              <th>Title</th>
              <th>Kind</th>
              <th>Status</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {projects.map((p) => (
              <ProjectRow key={p.id} project={p} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ProjectRow({ project: p }: { project: ProjectSummary }) {
  const { live } = useProjectLive(p);
  const status = live?.status ?? p.status;
  const stage = live ? live.stage : p.progress?.stage;
  const percent = live ? live.percent : p.progress?.percent;
  return (
    <tr data-project={p.id}>
      <td>
        <a href={`#/projects/${p.id}`}>{p.title}</a>
      </td>
      <td>{p.kind === 'magic_clips' ? 'magic clips' : 'edit'}</td>
      <td>
        <Status value={status} />
        {!TERMINAL.has(status) && <Progress label={stepLabel(status, stage, live?.clipsDone, live?.clipsTotal)} percent={percent} />}
        {status === 'failed' && <small className="error"> {live?.failureReason ?? p.failureReason}</small>}
      </td>
      <td>{when(p.createdAt)}</td>
    </tr>
  );
}
