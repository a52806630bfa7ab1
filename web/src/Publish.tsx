// Publishing: the publish form of an exported project (a member per platform,
// checked as the user types, now or at a time), and a publication's page
// with each post's status, link and analytics, followed live.
import { useState } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { PUBLICATION_UPDATES, type PublicationUpdate } from './documents.ts';
import { CANCEL_PUBLICATION, PROFILES, PUBLICATION, PUBLISH_PROJECT, type Profile, type PublicationDetail } from './documents-editor.ts';
import { codePoints, defaults, member, PLATFORM_FIELDS, PLATFORM_KEYS, problems, scheduledFor, type Field, type Fields } from './publish-rules.ts';
import { go } from './route.ts';
import { Empty, ErrorNote, number, Status, when } from './ui.tsx';

export function PublishForm({ projectId }: { projectId: string }) {
  const [{ data, error }] = useQuery<{ profiles: Profile[] }>({ query: PROFILES, requestPolicy: 'cache-and-network' });
  const profiles = data?.profiles ?? [];
  const [profileId, setProfileId] = useState('');
  const profile = profiles.find((p) => p.id === profileId) ?? profiles[0];
  const [members, setMembers] = useState<Record<string, Fields>>({});
  const [when_, setWhen] = useState('');
  const [state, publish] = useMutation(PUBLISH_PROJECT);
  const [sendError, setSendError] = useState<unknown>(null);
  const [touched, setTouched] = useState(false);
  const accountOf = (platform: string) => profile?.accounts.find((a) => a.platform === platform && a.status === 'connected');
  const chosen = Object.keys(members);
  const issues = Object.fromEntries(chosen.map((k) => [k, problems(k, members[k], accountOf(k))]));
  const scheduled = scheduledFor(when_);
  const scheduleProblem = when_ && (!scheduled || new Date(scheduled).getTime() <= Date.now()) ? 'must be in the future' : null;
  const valid = chosen.length > 0 && chosen.every((k) => Object.keys(issues[k]).length === 0) && !scheduleProblem;

  const toggle = (platform: string, on: boolean) => {
    const next = { ...members };
    if (on) next[platform] = defaults(platform);
    else delete next[platform];
    setMembers(next);
  };
  const set = (platform: string, name: string, value: string | boolean) => setMembers({ ...members, [platform]: { ...members[platform], [name]: value } });
  const send = async () => {
    setTouched(true);
    if (!valid || !profile) return;
    setSendError(null);
    const platforms = Object.fromEntries(chosen.map((k) => [k, member(k, members[k])]));
    const r = await publish({ projectId, input: { platforms, profileId: profile.id, ...(scheduled ? { scheduledFor: scheduled } : {}) } });
    if (r.error) return setSendError(r.error);
    go('publications', r.data.publishProject.id);
  };

  return (
    <article data-testid="publish-form">
      <header className="title-row">
        <strong>Publish</strong>
        <a href="#/profiles">Connect platforms</a>
      </header>
      <ErrorNote error={error} />
      {data && profiles.length === 0 ? (
        <Empty>
          No profile yet: add one under <a href="#/profiles">Profiles</a>, and connect its platforms.
        </Empty>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
          noValidate
        >
          {profiles.length > 1 && (
            <label>
              Profile
              <select value={profile?.id ?? ''} onChange={(e) => setProfileId(e.target.value)}>
                {profiles.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                    {p.isPrimary ? ' (primary)' : ''}
                  </option>
                ))}
              </select>
            </label>
          )}
          <fieldset className="platforms">
            <legend>Platforms</legend>
            {PLATFORM_KEYS.map((k) => {
              const account = accountOf(k);
              return (
                <label key={k}>
                  <input type="checkbox" checked={k in members} disabled={!account} onChange={(e) => toggle(k, e.target.checked)} />
                  <span>
                    {k} <small>{account ? (account.handle ?? account.connector) : 'not connected'}</small>
                  </span>
                </label>
              );
            })}
          </fieldset>
          {chosen.map((k) => (
            <fieldset key={k} className="member" data-platform={k}>
              <legend>{k}</legend>
              {PLATFORM_FIELDS[k].map((f) => (
                <MemberField key={f.name} platform={k} field={f} value={members[k][f.name]} problem={issues[k][f.name]} onChange={(v) => set(k, f.name, v)} />
              ))}
            </fieldset>
          ))}
          <label>
            Publish at (leave empty for now)
            <input type="datetime-local" value={when_} onChange={(e) => setWhen(e.target.value)} aria-invalid={scheduleProblem ? true : undefined} />
            {scheduleProblem && <small className="error">{scheduleProblem}</small>}
          </label>
          {touched && !valid && chosen.length === 0 && <p className="error">Choose at least one platform.</p>}
          <ErrorNote error={sendError} />
          <button type="submit" aria-busy={state.fetching} disabled={state.fetching || (touched && !valid)}>
            {scheduled ? 'Schedule' : 'Publish now'}
          </button>
        </form>
      )}
    </article>
  );
}

function MemberField({
  platform,
  field: f,
  value,
  problem,
  onChange,
}: {
  platform: string;
  field: Field;
  value: string | boolean | undefined;
  problem: string | undefined;
  onChange: (v: string | boolean) => void;
}) {
  const id = `${platform}-${f.name}`;
  const hint = `${id}-hint`;
  if (f.kind === 'checkbox')
    return (
      <label>
        <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
        {f.label}
      </label>
    );
  const text = String(value ?? '');
  const count = f.kind === 'tags' ? null : f.max ? `${codePoints(text)} / ${f.max}` : null;
  const common = { id, value: text, 'aria-invalid': problem ? true : undefined, 'aria-describedby': hint, 'aria-required': f.required || undefined };
  return (
    <div className="field">
      <label htmlFor={id}>
        {platform} {f.label.toLowerCase()}
        {f.required ? ' *' : ''}
      </label>
      {f.kind === 'select' ? (
        <select {...common} onChange={(e) => onChange(e.target.value)}>
          {f.options?.map((o) => (
            <option key={o} value={o}>
              {o || 'not commercial'}
            </option>
          ))}
        </select>
      ) : f.kind === 'textarea' ? (
        <textarea {...common} rows={2} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} onChange={(e) => onChange(e.target.value)} />
      )}
      <small id={hint} className="count">
        {count}
        {problem && (
          <span className="error">
            {count ? ' · ' : ''}
            {f.label} {problem}
          </span>
        )}
      </small>
    </div>
  );
}

/** One publication: its posts with status, link and analytics; a scheduled one can be cancelled. */
export function PublicationPage({ id }: { id: string }) {
  const [{ data, error }, refetch] = useQuery<{ publication: PublicationDetail }>({
    query: PUBLICATION,
    variables: { id },
    requestPolicy: 'cache-and-network',
  });
  const [refunded, setRefunded] = useState<number | null>(null);
  // a cancelled publication is removed: the page keeps what it read
  const [kept, setKept] = useState<PublicationDetail | null>(null);
  const p = kept ?? data?.publication;
  const [sub] = useSubscription<{ publicationUpdates: PublicationUpdate }>({
    query: PUBLICATION_UPDATES,
    variables: { publicationId: id },
    pause: !p || !(p.status === 'processing' || p.status === 'scheduled'),
  });
  const live = sub.data?.publicationUpdates;
  const [cancelling, cancel] = useMutation(CANCEL_PUBLICATION);
  const [cancelError, setCancelError] = useState<unknown>(null);
  if (!p)
    return (
      <section aria-busy={!error}>
        <ErrorNote error={error} />
      </section>
    );
  const status = kept ? 'cancelled' : (live?.status ?? p.status);
  const doCancel = async () => {
    setCancelError(null);
    const r = await cancel({ id });
    if (r.error) return setCancelError(r.error);
    setKept({ ...p, status: 'cancelled' });
    setRefunded(r.data.cancelPublication.refundedCredits);
  };
  return (
    <section data-publication={p.id}>
      <hgroup className="title-row">
        <h2>
          Publication of <a href={`#/projects/${p.project.id}`}>{p.project.title}</a>
        </h2>
        <p>
          <Status value={status} testId="publication-status" />{' '}
          {!kept && (
            <button type="button" className="secondary outline" onClick={() => refetch({ requestPolicy: 'network-only' })}>
              Refresh
            </button>
          )}
        </p>
      </hgroup>
      <p>
        {p.scheduled && status === 'scheduled' ? 'Scheduled for' : 'Published'} {when(p.publishedAt)} · {number(p.totals.views)} views ·{' '}
        {number(p.totals.engagement)} engagements · {number(p.totals.followersGained)} followers gained
      </p>
      {status === 'scheduled' && (
        <p>
          <button type="button" className="secondary" onClick={doCancel} aria-busy={cancelling.fetching} disabled={cancelling.fetching}>
            Cancel scheduled publication
          </button>
        </p>
      )}
      {refunded != null && <p role="status">Cancelled: nothing will be posted, {refunded} credits given back.</p>}
      <ErrorNote error={cancelError} />
      <table className="striped" data-testid="posts">
        <thead>
          <tr>
            <th>Platform</th>
            <th>Status</th>
            <th>Link</th>
            <th>Views</th>
            <th>Likes</th>
            <th>Comments</th>
            <th>Shares</th>
          </tr>
        </thead>
        <tbody>
          {p.posts.map((post) => {
            const now = { ...post, ...live?.posts.find((q) => q.platform === post.platform) };
            const a = post.analytics;
            return (
              <tr key={post.platform} data-platform={post.platform}>
                <td>{post.platform}</td>
                <td>
                  <Status value={now.publishStatus} />
                  {now.error && <small className="error"> {now.error}</small>}
                </td>
                <td>
                  {now.platformPostUrl ? (
                    <a href={now.platformPostUrl} target="_blank" rel="noreferrer">
                      view post
                    </a>
                  ) : (
                    '—'
                  )}
                </td>
                <td>{a ? number(a.views) : '—'}</td>
                <td>{a ? number(a.likes) : '—'}</td>
                <td>{a ? number(a.comments) : '—'}</td>
                <td>{a ? number(a.shares) : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
