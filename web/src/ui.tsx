// Small pieces the pages share.
import { type ReactNode, useEffect } from 'react';

const STATUS_CLASS: Record<string, string> = {
  completed: 'ok',
  published: 'ok',
  synced: 'ok',
  failed: 'bad',
  cancelled: 'bad',
  scheduled: 'idle',
  pending: 'idle',
};

export function Status({ value, testId }: { value: string; testId?: string }) {
  return (
    <span className={`status ${STATUS_CLASS[value] ?? 'busy'}`} data-status={value} data-testid={testId}>
      {value}
    </span>
  );
}

/** A step's progress; without a percent, a bar that says "working". */
export function Progress({ label, percent, testId }: { label: string; percent: number | null | undefined; testId?: string }) {
  return (
    <div className="progress" data-testid={testId}>
      <small>
        {label}
        {percent != null ? ` — ${Math.round(percent)}%` : ''}
      </small>
      {percent != null ? <progress value={percent} max={100} /> : <progress />}
    </div>
  );
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <p className="error" role="alert">
      {message.replace(/^\[(GraphQL|Network)\] /, '')}
    </p>
  );
}

export const Empty = ({ children }: { children: ReactNode }) => <p className="empty">{children}</p>;

export const seconds = (s: number | null | undefined) => (s == null ? '—' : `${s.toFixed(1)} s`);

export const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

export const number = (n: number) => n.toLocaleString();

/** A page that lists things: its title with a refresh button, then a table of rows, or what to do when there are none. */
export function Listing(props: {
  title: string;
  actions?: ReactNode;
  fetching: boolean;
  error: unknown;
  onRefresh: () => void;
  /** shown instead of the table once the list is read and empty */
  empty: ReactNode | null;
  columns: string[];
  children: ReactNode;
}) {
  return (
    <section>
      <hgroup className="title-row">
        <h2>{props.title}</h2>
        <p>
          {props.actions}{' '}
          <button type="button" className="secondary outline" aria-busy={props.fetching} onClick={props.onRefresh}>
            Refresh
          </button>
        </p>
      </hgroup>
      <ErrorNote error={props.error} />
      {props.empty ? (
        <Empty>{props.empty}</Empty>
      ) : (
        <table className="striped">
          <thead>
            <tr>
              {props.columns.map((c) => (
                <th key={c}>{c}</th>
              ))}
            </tr>
          </thead>
          <tbody>{props.children}</tbody>
        </table>
      )}
    </section>
  );
}

/** Reads a list again every second while `pending` (a file being fetched, a delivery being attempted), until it has settled. */
export function useRereadWhile(pending: boolean, reread: () => void) {
  useEffect(() => {
    if (!pending) return;
    const t = setInterval(reread, 1000);
    return () => clearInterval(t);
  }, [pending, reread]);
}
