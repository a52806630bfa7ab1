// Accounts per profile: each profile's account on every platform, connected
// through the platform's consent page (the service's callback sends the
// browser back here with the outcome), or disconnected.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { CONNECT_ACCOUNT, CREATE_PROFILE, DISCONNECT_ACCOUNT, PROFILES, type PlatformAvailability, type Profile } from './documents-editor.ts';
import { Empty, ErrorNote, number, Status, when } from './ui.tsx';

/** What the OAuth callback added to the console's address, read once and taken off it. */
function oauthOutcome(): { connected?: string; error?: string } | null {
  const q = new URLSearchParams(location.search);
  const connected = q.get('connected') ?? undefined;
  const error = q.get('error') ?? undefined;
  if (!connected && !error) return null;
  history.replaceState(null, '', `${location.pathname}${location.hash}`);
  return { connected, error };
}

export function Accounts() {
  const [outcome] = useState(oauthOutcome);
  const [{ data, fetching, error }, refetch] = useQuery<{ profiles: Profile[]; platforms: PlatformAvailability[] }>({
    query: PROFILES,
    requestPolicy: 'network-only',
  });
  const reread = () => refetch({ requestPolicy: 'network-only' });
  return (
    <section>
      <hgroup className="title-row">
        <h2>Profiles</h2>
        <p>
          <button type="button" className="secondary outline" aria-busy={fetching} onClick={reread}>
            Refresh
          </button>
        </p>
      </hgroup>
      {outcome?.connected && (
        <p role="status" className="notice ok" data-testid="oauth-outcome">
          Your {outcome.connected} account is connected.
        </p>
      )}
      {outcome?.error && (
        <p role="alert" className="notice error" data-testid="oauth-outcome">
          The account was not connected: {outcome.error}
        </p>
      )}
      <ErrorNote error={error} />
      {data?.profiles.map((p) => (
        <ProfileAccounts key={p.id} profile={p} platforms={data.platforms} onChange={reread} />
      ))}
      {data && <NewProfile first={data.profiles.length === 0} onCreated={reread} />}
    </section>
  );
}

function ProfileAccounts({ profile, platforms, onChange }: { profile: Profile; platforms: PlatformAvailability[]; onChange: () => void }) {
  const [connecting, connect] = useMutation(CONNECT_ACCOUNT);
  const [disconnecting, disconnect] = useMutation(DISCONNECT_ACCOUNT);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const start = async (platform: string) => {
    setError(null);
    setBusy(platform);
    const returnUrl = `${location.origin}${location.pathname}#/profiles`;
    const r = await connect({ profileId: profile.id, platform, returnUrl });
    setBusy(null);
    if (r.error) return setError(r.error);
    // the platform's consent page, which comes back through the service to returnUrl
    location.assign(r.data.connectAccount.authorizationUrl);
  };
  const stop = async (platform: string) => {
    setError(null);
    setBusy(platform);
    const r = await disconnect({ profileId: profile.id, platform });
    setBusy(null);
    if (r.error) return setError(r.error);
    onChange();
  };
  return (
    <article data-profile={profile.id}>
      <header>
        <strong>{profile.name}</strong> {profile.isPrimary && <small>(primary profile: publications go through it unless told otherwise)</small>}
      </header>
      <ErrorNote error={error} />
      <table className="striped accounts">
        <thead>
          <tr>
            <th>Platform</th>
            <th>Account</th>
            <th>Status</th>
            <th>Followers</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          {platforms.map((pl) => {
            const a = profile.accounts.find((x) => x.platform === pl.key);
            const connected = a?.status === 'connected';
            return (
              <tr key={pl.key} data-platform={pl.key}>
                <td>
                  {pl.key}
                  <br />
                  <small>{pl.kind}</small>
                </td>
                <td>
                  {a ? (
                    <>
                      {a.handle ?? '—'}
                      <br />
                      <small>
                        {a.connector === 'sandbox' ? 'sandbox account' : 'connected through the platform'} since {when(a.connectedAt)}
                        {a.isPrivate ? ' · private' : ''}
                      </small>
                    </>
                  ) : (
                    <small>none</small>
                  )}
                </td>
                <td>
                  {a ? <Status value={a.status === 'connected' ? 'connected' : 'disconnected'} /> : '—'}
                  {a?.statusReason && <small> {a.statusReason}</small>}
                </td>
                <td>{a ? number(a.followers) : '—'}</td>
                <td>
                  {connected ? (
                    <button type="button" className="secondary outline" onClick={() => stop(pl.key)} aria-busy={busy === pl.key && disconnecting.fetching}>
                      Disconnect {pl.key}
                    </button>
                  ) : pl.available ? (
                    <button type="button" onClick={() => start(pl.key)} aria-busy={busy === pl.key && connecting.fetching} disabled={connecting.fetching}>
                      Connect {pl.key}
                    </button>
                  ) : (
                    <small title={pl.reason ?? undefined}>not available here{pl.reason ? `: ${pl.reason}` : ''}</small>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <small>
        A sandbox account (its posts go nowhere: for trying things out) is connected by the operator:{' '}
        <code>npm run admin -- account connect --profile {profile.id} --platform …</code>
      </small>
    </article>
  );
}

function NewProfile({ first, onCreated }: { first: boolean; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [state, create] = useMutation(CREATE_PROFILE);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const r = await create({ input: { name: name.trim() } });
    if (r.error) return setError(r.error);
    setName('');
    onCreated();
  };
  return (
    <article>
      {first && <Empty>No profile yet: a profile is a brand you publish as, with one account per platform.</Empty>}
      <form onSubmit={submit} className="inline-form">
        <label>
          New profile name
          <input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} required />
        </label>
        <button type="submit" disabled={!name.trim() || state.fetching} aria-busy={state.fetching}>
          Add profile
        </button>
      </form>
      <ErrorNote error={error} />
    </article>
  );
}
