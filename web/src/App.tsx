import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Provider } from 'urql';
import { connect, forgetKey, queryWithKey, storedKey, storeKey } from './api.ts';
import { WHOAMI } from './documents.ts';
import { Accounts } from './Accounts.tsx';
import { NewProject } from './NewProject.tsx';
import { ProjectPage } from './ProjectPage.tsx';
import { Projects } from './Projects.tsx';
import { Publications } from './Publications.tsx';
import { PublicationPage } from './Publish.tsx';
import { go, useRoute } from './route.ts';
import { Stats } from './Stats.tsx';
import { Account } from './Account.tsx';
import { Library } from './Library.tsx';
import { Presets } from './Presets.tsx';
import { ErrorNote } from './ui.tsx';

export function App() {
  const [key, setKey] = useState(storedKey);
  const connection = useMemo(() => (key ? connect(key) : null), [key]);
  useEffect(() => () => connection?.dispose(), [connection]);

  if (!connection) {
    return (
      <SignIn
        onSignedIn={(k) => {
          storeKey(k);
          setKey(k);
        }}
      />
    );
  }
  const signOut = () => {
    forgetKey();
    setKey(null);
    go();
  };
  return (
    <Provider value={connection.urql}>
      <Shell apiKey={connection.key} onSignOut={signOut} />
    </Provider>
  );
}

/** The key is checked with one query before it is kept in this browser. */
function SignIn({ onSignedIn }: { onSignedIn: (key: string) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [checking, setChecking] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setChecking(true);
    setError(null);
    try {
      await queryWithKey(key.trim(), WHOAMI);
      onSignedIn(key.trim());
    } catch (err) {
      setError(err);
    } finally {
      setChecking(false);
    }
  };
  return (
    <main className="container signin">
      <article>
        <header>
          <h1>clipcast</h1>
          <p>Sign in with an API key. It is kept in this browser until you sign out.</p>
        </header>
        <form onSubmit={submit}>
          <label>
            API key
            <input name="apiKey" type="password" autoComplete="off" placeholder="sk-…" required value={key} onChange={(e) => setKey(e.target.value)} />
          </label>
          <ErrorNote error={error} />
          <button type="submit" aria-busy={checking} disabled={checking || !key.trim()}>
            Sign in
          </button>
        </form>
        <footer>
          <small>
            No key yet? <code>npm run --silent admin -- user create --email you@example.com</code> prints one.
          </small>
        </footer>
      </article>
    </main>
  );
}

const SECTIONS = [
  { path: 'projects', label: 'Projects' },
  { path: 'new', label: 'New project' },
  { path: 'publications', label: 'Publications' },
  { path: 'profiles', label: 'Profiles' },
  { path: 'stats', label: 'Statistics' },
  { path: 'library', label: 'Library' },
  { path: 'presets', label: 'Presets' },
  { path: 'account', label: 'Account' },
];

function Shell({ apiKey, onSignOut }: { apiKey: string; onSignOut: () => void }) {
  const route = useRoute();
  const [section = 'projects', id] = route;
  let page;
  if (section === 'projects' && id) page = <ProjectPage id={id} />;
  else if (section === 'new') page = <NewProject apiKey={apiKey} />;
  else if (section === 'publications' && id) page = <PublicationPage id={id} />;
  else if (section === 'publications') page = <Publications />;
  else if (section === 'profiles') page = <Accounts />;
  else if (section === 'stats') page = <Stats />;
  else if (section === 'library') page = <Library apiKey={apiKey} />;
  else if (section === 'presets') page = <Presets />;
  else if (section === 'account') page = <Account />;
  else page = <Projects />;
  return (
    <>
      <header className="container">
        <nav>
          <ul>
            <li>
              <strong>clipcast</strong>
            </li>
          </ul>
          <ul>
            {SECTIONS.map((s) => (
              <li key={s.path}>
                <a href={`#/${s.path}`} aria-current={section === s.path ? 'page' : undefined}>
                  {s.label}
                </a>
              </li>
            ))}
            <li>
              <button type="button" className="secondary outline" onClick={onSignOut} title={`Signed in with ${apiKey.slice(0, 7)}…`}>
                Sign out
              </button>
            </li>
          </ul>
        </nav>
      </header>
      <main className="container">{page}</main>
    </>
  );
}
