import { useQuery, useSubscription } from 'urql';
import { PUBLICATION_UPDATES, PUBLICATIONS, type Publication, type PublicationUpdate } from './documents.ts';
import { Listing, number, Status, when } from './ui.tsx';

/** A publication whose posts may still change: its subscription ends once every post has ended. */
const settling = (status: string) => status === 'processing' || status === 'scheduled';

export function Publications() {
  const [{ data, fetching, error }, refetch] = useQuery<{ publications: { data: Publication[] } }>({
    query: PUBLICATIONS,
    variables: { limit: 50 },
    requestPolicy: 'cache-and-network',
  });
  const publications = data?.publications.data ?? [];
  return (
    <Listing
      title="Publications"
      fetching={fetching}
      error={error}
      onRefresh={() => refetch({ requestPolicy: 'network-only' })}
      empty={
        data && publications.length === 0
          ? 'Nothing published yet: an exported project is published with publishProject or POST /v1/projects/{id}/publish.'
          : null
      }
      columns={['Project', 'Status', 'Posts', 'Views', 'Engagement', 'Followers gained']}
    >
      {publications.map((p) => (
        <PublicationRow key={p.id} publication={p} />
      ))}
    </Listing>
  );
}

function PublicationRow({ publication: p }: { publication: Publication }) {
  const [sub] = useSubscription<{ publicationUpdates: PublicationUpdate }>({
    query: PUBLICATION_UPDATES,
    variables: { publicationId: p.id },
    pause: !settling(p.status),
  });
  const live = sub.data?.publicationUpdates;
  const status = live?.status ?? p.status;
  const postStatus = (platform: string) => live?.posts.find((q) => q.platform === platform);
  return (
    <tr data-publication={p.id}>
      <td>
        <a href={`#/projects/${p.project.id}`}>{p.project.title}</a>
        <br />
        <small>
          <a href={`#/publications/${p.id}`}>
            {p.scheduled ? 'scheduled for' : 'published'} {when(p.publishedAt)}
          </a>
        </small>
      </td>
      <td>
        <Status value={status} />
      </td>
      <td>
        <ul className="posts">
          {p.posts.map((post) => {
            const now = { ...post, ...postStatus(post.platform) };
            return (
              <li key={post.platform} title={now.error ?? undefined}>
                <span className="platform">{post.platform}</span> <Status value={now.publishStatus} />{' '}
                {now.platformPostUrl && (
                  <a href={now.platformPostUrl} target="_blank" rel="noreferrer">
                    view
                  </a>
                )}
                {post.analytics && <small> {number(post.analytics.views)} views</small>}
                {now.error && <small className="error"> {now.error}</small>}
              </li>
            );
          })}
        </ul>
      </td>
      <td>{number(p.totals.views)}</td>
      <td>{number(p.totals.engagement)}</td>
      <td>{number(p.totals.followersGained)}</td>
    </tr>
  );
}
