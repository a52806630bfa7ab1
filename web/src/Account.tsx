import { useCallback, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Confirm, Dialog } from './dialog.tsx';
import {
  ACCOUNT,
  API_KEYS,
  CREATE_API_KEY,
  CREDIT_LEDGER,
  REDELIVER_WEBHOOK,
  REVOKE_API_KEY,
  WEBHOOK_DELIVERIES,
  type Account as AccountData,
  type ApiKey,
  type LedgerEntry,
  type PageInfo,
  type WebhookDelivery,
} from './documents-manage.ts';
import { Pager } from './Library.tsx';
import { ErrorNote, Listing, useRereadWhile, number, when } from './ui.tsx';

const PAGE = 10;

/** The account: balances and entitlements, the credit ledger, API keys, webhook deliveries. */
export function Account() {
  return (
    <div className="account">
      <Balances />
      <Ledger />
      <ApiKeys />
      <Deliveries />
    </div>
  );
}

function Balances() {
  const [{ data, fetching, error }, refetch] = useQuery<{ account: AccountData }>({ query: ACCOUNT, requestPolicy: 'cache-and-network' });
  const a = data?.account;
  const figure = (label: string, value: string) => (
    <div className="figure" key={label}>
      <span>{label}</span>
      <strong>{value}</strong>
    </div>
  );
  return (
    <section aria-labelledby="balances">
      <hgroup className="title-row">
        <h2 id="balances">Account</h2>
        <p>
          <button type="button" className="secondary outline" aria-busy={fetching} onClick={() => refetch({ requestPolicy: 'network-only' })}>
            Refresh
          </button>
        </p>
      </hgroup>
      <ErrorNote error={error} />
      {a && (
        <>
          <p>
            {a.email} <small>· since {when(a.createdAt)}</small>
          </p>
          <div className="grid figures" data-testid="balances">
            {figure('API credits', number(a.balances.apiCredits))}
            {figure('AI credits', a.balances.aiUnlimited || a.balances.aiCredits == null ? 'Unlimited' : number(a.balances.aiCredits))}
            {figure('Clip credits', number(a.balances.clipCredits))}
          </div>
          <ul className="entitlements">
            <li>Publishing through the API: {a.entitlements.apiPublishing ? 'included' : 'not included'}</li>
            <li>Magic clips: {a.entitlements.clipsSubscription ? 'included' : 'not included'}</li>
          </ul>
        </>
      )}
    </section>
  );
}

/** A list read a page at a time: the cursors of the pages before the one shown. */
function usePages() {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    after: cursors.at(-1) ?? null,
    pager: (label: string, info: PageInfo | undefined) => (
      <Pager
        label={label}
        hasPrevious={cursors.length > 0}
        hasNext={!!info?.hasNextPage}
        onPrevious={() => setCursors(cursors.slice(0, -1))}
        onNext={() => info?.endCursor && setCursors([...cursors, info.endCursor])}
      />
    ),
  };
}

function Ledger() {
  const pages = usePages();
  const [{ data, fetching, error }, refetch] = useQuery<{ creditLedger: { edges: { node: LedgerEntry }[]; pageInfo: PageInfo } }>({
    query: CREDIT_LEDGER,
    variables: { first: PAGE, after: pages.after },
    requestPolicy: 'cache-and-network',
  });
  const entries = data?.creditLedger.edges.map((e) => e.node) ?? [];
  return (
    <div data-testid="ledger">
      <Listing
        title="Credit ledger"
        fetching={fetching}
        error={error}
        onRefresh={() => refetch({ requestPolicy: 'network-only' })}
        empty={data && entries.length === 0 && !pages.after ? 'No credit has moved yet.' : null}
        columns={['When', 'Credits', 'Change', 'Reason', 'About']}
      >
        {entries.map((e) => (
          <tr key={e.id} data-entry={e.id}>
            <td>{when(e.createdAt)}</td>
            <td>{e.kind}</td>
            <td className={e.delta < 0 ? 'debit' : 'credit'}>{e.delta > 0 ? `+${e.delta}` : e.delta}</td>
            <td>{e.reason}</td>
            <td>{e.subjectId ? <code>{e.subjectId}</code> : '—'}</td>
          </tr>
        ))}
      </Listing>
      {pages.pager('Credit ledger pages', data?.creditLedger.pageInfo)}
    </div>
  );
}

function ApiKeys() {
  const [{ data, fetching, error }, refetch] = useQuery<{ apiKeys: ApiKey[] }>({ query: API_KEYS, requestPolicy: 'cache-and-network' });
  const [created, create] = useMutation<{ createApiKey: { apiKey: string; key: ApiKey } }>(CREATE_API_KEY);
  const [secret, setSecret] = useState<string | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const keys = data?.apiKeys ?? [];
  const issue = async () => {
    const r = await create({});
    if (r.data) {
      setCopied(null);
      setSecret(r.data.createApiKey.apiKey);
      reload();
    }
  };
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  // the clipboard is there on https and on this machine; elsewhere the key is selected, for the user to copy
  const copy = async () => {
    if (!secret) return;
    const done = await (navigator.clipboard?.writeText(secret) ?? Promise.reject()).then(
      () => true,
      () => false,
    );
    if (!done) {
      const code = document.querySelector('[data-testid=new-key]');
      if (code) getSelection()?.selectAllChildren(code);
    }
    setCopied(done ? 'yes' : 'no');
  };
  return (
    <div data-testid="api-keys">
      <Listing
        title="API keys"
        actions={
          <button type="button" aria-busy={created.fetching} onClick={() => void (created.fetching || issue())}>
            Create key
          </button>
        }
        fetching={fetching}
        error={error ?? created.error}
        onRefresh={reload}
        empty={null}
        columns={['Key', 'Created', 'Last used', '']}
      >
        {keys.map((k) => (
          <KeyRow key={k.id} apiKey={k} onRevoked={reload} />
        ))}
      </Listing>
      <Dialog
        open={!!secret}
        title="Your new API key"
        onClose={() => setSecret(null)}
        footer={
          <button type="button" onClick={() => setSecret(null)}>
            Done, I have stored it
          </button>
        }
      >
        <p>Store it now: it is shown only this once.</p>
        <p className="secret">
          <code data-testid="new-key">{secret}</code>
        </p>
        <button type="button" className="secondary" onClick={() => void copy()}>
          {copied === 'yes' ? 'Copied' : 'Copy the key'}
        </button>{' '}
        <span role="status">
          {copied === 'yes'
            ? 'The key is on the clipboard.'
            : copied === 'no'
              ? 'This browser keeps its clipboard closed: the key is selected, copy it with Ctrl+C.'
              : ''}
        </span>
      </Dialog>
    </div>
  );
}

function KeyRow({ apiKey: k, onRevoked }: { apiKey: ApiKey; onRevoked: () => void }) {
  const [{ fetching }, revoke] = useMutation(REVOKE_API_KEY);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    const r = await revoke({ id: k.id });
    setAsking(false);
    if (r.error) setError(r.error);
    else onRevoked();
  };
  return (
    <tr data-key={k.prefix}>
      <td>
        <code>{k.prefix}…</code> {k.current && <span className="status ok">this browser</span>}
      </td>
      <td>{when(k.createdAt)}</td>
      <td>{k.lastUsedAt ? when(k.lastUsedAt) : 'never'}</td>
      <td>
        {k.current ? (
          <small>signed in with it</small>
        ) : (
          <button type="button" className="secondary outline" aria-label={`Revoke ${k.prefix}…`} onClick={() => setAsking(true)}>
            Revoke
          </button>
        )}
        <ErrorNote error={error} />
        <Confirm
          open={asking}
          title={`Revoke ${k.prefix}…?`}
          confirm="Revoke"
          busy={fetching}
          onConfirm={() => void confirm()}
          onCancel={() => setAsking(false)}
        >
          <p>Requests with this key are refused from now on. This cannot be undone.</p>
        </Confirm>
      </td>
    </tr>
  );
}

function Deliveries() {
  const pages = usePages();
  const [{ data, fetching, error }, refetch] = useQuery<{ webhookDeliveries: { edges: { node: WebhookDelivery }[]; pageInfo: PageInfo } }>({
    query: WEBHOOK_DELIVERIES,
    variables: { first: PAGE, after: pages.after },
    requestPolicy: 'cache-and-network',
  });
  const deliveries = data?.webhookDeliveries.edges.map((e) => e.node) ?? [];
  const reload = useCallback(() => refetch({ requestPolicy: 'network-only' }), [refetch]);
  // a delivery still being attempted: read again until it has ended
  const pending = deliveries.some((d) => d.status === 'pending');
  useRereadWhile(pending, reload);
  return (
    <div data-testid="deliveries">
      <Listing
        title="Webhook deliveries"
        fetching={fetching}
        error={error}
        onRefresh={reload}
        empty={data && deliveries.length === 0 && !pages.after ? 'No webhook sent yet: give a webhookUrl when you create a project.' : null}
        columns={['Event', 'Sent to', 'Status', 'Attempts', 'Delivered', '']}
      >
        {deliveries.map((d) => (
          <DeliveryRow key={d.id} delivery={d} onRedelivered={reload} />
        ))}
      </Listing>
      {pages.pager('Webhook delivery pages', data?.webhookDeliveries.pageInfo)}
    </div>
  );
}

const DELIVERY_STATUS = { delivered: 'ok', failed: 'bad', pending: 'busy' } as const;

function DeliveryRow({ delivery: d, onRedelivered }: { delivery: WebhookDelivery; onRedelivered: () => void }) {
  const [{ fetching, error }, redeliver] = useMutation(REDELIVER_WEBHOOK);
  const send = async () => {
    const r = await redeliver({ id: d.id });
    if (!r.error) onRedelivered();
  };
  return (
    <tr data-delivery={d.id}>
      <td>
        {d.event}
        {d.subjectId && (
          <>
            <br />
            <small>
              <code>{d.subjectId}</code>
            </small>
          </>
        )}
      </td>
      <td className="url">{d.url}</td>
      <td>
        <span className={`status ${DELIVERY_STATUS[d.status]}`} data-status={d.status}>
          {d.status}
        </span>
      </td>
      <td data-testid="attempts">
        {d.attempts}
        {d.lastStatusCode != null && <small> · HTTP {d.lastStatusCode}</small>}
        {d.lastError && <small className="error"> · {d.lastError}</small>}
        {d.status === 'pending' && d.nextAttemptAt && <small> · next {when(d.nextAttemptAt)}</small>}
      </td>
      <td data-testid="delivered-at">{d.deliveredAt ? when(d.deliveredAt) : '—'}</td>
      <td>
        <button
          type="button"
          className="secondary outline"
          aria-label={`Redeliver ${d.event}`}
          aria-busy={fetching}
          disabled={fetching || d.status === 'pending'}
          onClick={() => void send()}
        >
          Redeliver
        </button>
        <ErrorNote error={error} />
      </td>
    </tr>
  );
}
