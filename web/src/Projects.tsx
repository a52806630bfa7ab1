import { useQuery } from 'urql';
import { PROJECTS, TERMINAL, type ProjectSummary } from './documents.ts';
import { stepLabel, useProjectLive } from './live.ts';
import { Listing, Progress, Status, when } from './ui.tsx';

export function Projects() {
  const [{ data, fetching, error }, refetch] = useQuery<{ projects: { edges: { node: ProjectSummary }[] } }>({
    query: PROJECTS,
    variables: { first: 50 },
    requestPolicy: 'cache-and-network',
  });
  const projects = data?.projects.edges.map((e) => e.node) ?? [];
  return (
    <Listing
      title="Projects"
      actions={
        <a href="#/new" role="button">
          New project
        </a>
      }
      fetching={fetching}
      error={error}
      onRefresh={() => refetch({ requestPolicy: 'network-only' })}
      empty={data && projects.length === 0 ? 'No project yet: upload a video or give its URL under New project.' : null}
      columns={['Title', 'Kind', 'Status', 'Created']}
    >
      {projects.map((p) => (
        <ProjectRow key={p.id} project={p} />
      ))}
    </Listing>
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
