/**
 * What the editor and dashboard need beyond SPEC.md, through both doors:
 * the project listing (newest first, keyset pages, by status, kind and words
 * of the title); the account's balances and credit ledger; API keys listed,
 * made (shown once) and revoked, never the last through itself; profiles
 * made, renamed, made primary and deleted only when they hold nothing;
 * library entries deleted with their files, never while something draws
 * them. Every rule refused in the spec's shape, each user seeing only their own.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renamedFont, SCRIPT_FONT, swapRedBlueCube } from '../support/fonts.js';
import { mediaFixtures } from '../support/media.js';
import { createUser, gql, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';

let app: TestApp;
let user: TestUser;
let other: TestUser;
const ids: Record<string, string> = {};

beforeAll(async () => {
  app = await startTestApp({ role: 'server' });
  [user, other] = await Promise.all([createUser(app), createUser(app)]);
  const db = app.runtime.app.db;
  // five projects a second apart, oldest first, and one of another user
  const rows: Array<[string, Record<string, unknown>]> = [
    ['Morning routine', { status: 'completed' }],
    ['Podcast episode 12', { status: 'completed', kind: 'magic_clips' }],
    ['Cooking the ROUTINE way', { status: 'failed' }],
    ['Travel diary', { status: 'transcribing' }],
    ['Evening routine', { status: 'completed' }],
  ];
  for (const [i, [title, data]] of rows.entries()) {
    const p = await db.project.create({
      data: { userId: user.id, title, language: 'en', templateName: 'classic', createdAt: new Date(Date.UTC(2026, 10, 1, 0, 0, i)), ...data } as never,
    });
    ids[title] = p.id;
  }
  await db.project.create({ data: { userId: other.id, title: 'Not yours routine', language: 'en', templateName: 'classic' } as never });
});
afterAll(async () => {
  await app?.stop();
});

const titles = (items: Array<{ title: string }>) => items.map((p) => p.title);

describe('GET /v1/projects', () => {
  it('lists your projects newest first with their kind and status, a page at a time', async () => {
    const first = await request(app, 'GET', '/v1/projects?limit=2', { key: user.key });
    expect(first.status).toBe(200);
    expect(titles(first.body.items)).toEqual(['Evening routine', 'Travel diary']);
    expect(first.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    expect(first.body.items[0]).toEqual({
      id: ids['Evening routine'],
      title: 'Evening routine',
      kind: 'edit',
      status: 'completed',
      language: 'en',
      createdAt: '2026-11-01T00:00:04.000Z',
      updatedAt: expect.any(String),
    });
    const rest: string[] = [];
    let cursor = first.body.nextCursor;
    while (cursor) {
      const page = await request(app, 'GET', `/v1/projects?limit=2&cursor=${cursor}`, { key: user.key });
      rest.push(...titles(page.body.items));
      cursor = page.body.hasMore ? page.body.nextCursor : undefined;
    }
    expect(rest).toEqual(['Cooking the ROUTINE way', 'Podcast episode 12', 'Morning routine']);
  });

  it('filters by status, kind and words of the title in any case, together', async () => {
    const get = async (query: string) => titles((await request(app, 'GET', `/v1/projects?${query}`, { key: user.key })).body.items);
    expect(await get('q=routine')).toEqual(['Evening routine', 'Cooking the ROUTINE way', 'Morning routine']);
    expect(await get('q=routine&status=completed')).toEqual(['Evening routine', 'Morning routine']);
    expect(await get('kind=magic_clips')).toEqual(['Podcast episode 12']);
    expect(await get('kind=edit&status=failed')).toEqual(['Cooking the ROUTINE way']);
    expect(await get('q=%25')).toEqual([]);
    expect(await get('q=_')).toEqual([]);
    expect(await get('q=nothing+like+it')).toEqual([]);
  });

  it('refuses every wrong query value at once, in the spec’s shape', async () => {
    const r = await request(app, 'GET', '/v1/projects?status=done&kind=clip&limit=ten', { key: user.key });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('VALIDATION_ERROR');
    expect(r.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['kind', 'limit', 'status']);
    expect((await request(app, 'GET', '/v1/projects?limit=0', { key: user.key })).body.details).toEqual([expect.objectContaining({ field: 'limit' })]);
    const long = await request(app, 'GET', `/v1/projects?q=${'x'.repeat(201)}`, { key: user.key });
    expect(long.status).toBe(400);
    expect(long.body.details).toEqual([expect.objectContaining({ field: 'q', message: 'must be at most 200 characters' })]);
    expect((await request(app, 'GET', '/v1/projects', {})).status).toBe(401);
  });

  it('answers the same through GraphQL', async () => {
    const r = await gql(app, user.key, 'query($q: String, $kind: ProjectKind) { projects(first: 10, q: $q, kind: $kind) { edges { node { title kind } } } }', {
      q: 'ROUTINE',
      kind: 'edit',
    });
    expect(r.body.data.projects.edges.map((e: { node: { title: string } }) => e.node.title)).toEqual([
      'Evening routine',
      'Cooking the ROUTINE way',
      'Morning routine',
    ]);
  });
});

describe('GET /v1/account and /v1/account/ledger', () => {
  it('shows the entitlements and balances, unlimited AI credits as such', async () => {
    const rich = await createUser(app, { apiCredits: 40, aiCredits: null, clipCredits: 3, clipsSubscription: true });
    const r = await request(app, 'GET', '/v1/account', { key: rich.key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      email: expect.stringContaining('@'),
      entitlements: { clipsSubscription: true, apiPublishing: false },
      balances: { apiCredits: 40, aiCredits: null, aiUnlimited: true, clipCredits: 3 },
      createdAt: expect.any(String),
    });
    const plain = await gql(app, user.key, '{ account { balances { aiCredits aiUnlimited } } }');
    expect(plain.body.data.account.balances).toEqual({ aiCredits: 10, aiUnlimited: false });
  });

  it('pages the ledger newest first, by kind, only your own', async () => {
    const db = app.runtime.app.db;
    const at = (s: number) => new Date(Date.UTC(2026, 10, 2, 0, 0, s));
    await db.creditLedger.createMany({
      data: [
        { userId: user.id, kind: 'api', delta: -3, reason: 'publication', subjectId: 'pub_1', createdAt: at(1) },
        { userId: user.id, kind: 'ai', delta: -1, reason: 'AI B-roll', createdAt: at(2) },
        { userId: user.id, kind: 'api', delta: 3, reason: 'publication cancelled', subjectId: 'pub_1', createdAt: at(3) },
        { userId: other.id, kind: 'api', delta: -1, reason: 'not yours', createdAt: at(4) },
      ],
    });
    const first = await request(app, 'GET', '/v1/account/ledger?limit=2', { key: user.key });
    expect(first.body.items).toEqual([
      { id: expect.any(String), kind: 'api', delta: 3, reason: 'publication cancelled', subjectId: 'pub_1', createdAt: at(3).toISOString() },
      { id: expect.any(String), kind: 'ai', delta: -1, reason: 'AI B-roll', createdAt: at(2).toISOString() },
    ]);
    const next = await request(app, 'GET', `/v1/account/ledger?limit=2&cursor=${first.body.nextCursor}`, { key: user.key });
    expect(next.body).toMatchObject({ items: [{ reason: 'publication', delta: -3 }], hasMore: false });
    const api = await request(app, 'GET', '/v1/account/ledger?kind=api', { key: user.key });
    expect(api.body.items.map((e: { delta: number }) => e.delta)).toEqual([3, -3]);
    const bad = await request(app, 'GET', '/v1/account/ledger?kind=gold&cursor=nope', { key: user.key });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field)).toContain('kind');
  });
});

describe('/v1/api-keys', () => {
  it('lists the keys that work with the one of this request marked, issues one shown once, and revokes', async () => {
    const owner = await createUser(app);
    const made = await request(app, 'POST', '/v1/api-keys', { key: owner.key });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      apiKey: expect.stringMatching(/^sk-/),
      key: { id: expect.any(String), prefix: expect.any(String), createdAt: expect.any(String) },
    });
    expect(made.body.apiKey.startsWith(made.body.key.prefix)).toBe(true);
    const listed = await request(app, 'GET', '/v1/api-keys', { key: owner.key });
    expect(listed.body.items).toHaveLength(2);
    expect(listed.body.items[0]).toEqual({
      id: made.body.key.id,
      prefix: made.body.key.prefix,
      createdAt: expect.any(String),
      lastUsedAt: null,
      current: false,
    });
    expect(listed.body.items[1]).toMatchObject({ current: true });
    expect(JSON.stringify(listed.body)).not.toContain(made.body.apiKey);
    // the request's key has its last use recorded (written beside the request)
    await expect.poll(async () => (await app.runtime.app.db.apiKey.findUniqueOrThrow({ where: { id: listed.body.items[1].id } })).lastUsedAt).not.toBeNull();

    // the old key revokes itself while the new one works; the new one, now the last, cannot
    const self = await request(app, 'DELETE', `/v1/api-keys/${listed.body.items[1].id}`, { key: owner.key });
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({ id: listed.body.items[1].id, revokedAt: expect.any(String) });
    expect((await request(app, 'GET', '/v1/api-keys', { key: owner.key })).status).toBe(401);
    const last = await request(app, 'DELETE', `/v1/api-keys/${made.body.key.id}`, { key: made.body.apiKey });
    expect(last.status).toBe(400);
    expect(last.body).toMatchObject({ error: 'BAD_REQUEST', message: expect.stringContaining('create another key before revoking this one') });
    expect((await request(app, 'GET', '/v1/api-keys', { key: made.body.apiKey })).body.items).toHaveLength(1);
    // revoked twice, another user's, not a UUID: 404
    for (const id of [listed.body.items[1].id, 'not-a-uuid'])
      expect((await request(app, 'DELETE', `/v1/api-keys/${id}`, { key: made.body.apiKey })).status).toBe(404);
    expect((await request(app, 'DELETE', `/v1/api-keys/${made.body.key.id}`, { key: other.key })).status).toBe(404);
  });
});

describe('profiles', () => {
  it('are made, renamed and made primary, one primary at a time, every rule at once', async () => {
    const owner = await createUser(app);
    const post = (json: unknown) => request(app, 'POST', '/v1/profiles', { key: owner.key, json });
    const first = await post({ name: 'Main brand' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: expect.any(String), name: 'Main brand', isPrimary: true, createdAt: expect.any(String), accounts: [] });
    const second = await post({ name: 'Side project', primary: true });
    expect(second.body.isPrimary).toBe(true);
    const listed = await request(app, 'GET', '/v1/profiles', { key: owner.key });
    expect(listed.body.data.map((p: { name: string; isPrimary: boolean }) => [p.name, p.isPrimary])).toEqual([
      ['Side project', true],
      ['Main brand', false],
    ]);
    expect((await post({ name: '', primary: 'yes' })).body.details.map((d: { field: string }) => d.field).sort()).toEqual(['name', 'primary']);
    const put = (id: string, json: unknown) => request(app, 'PUT', `/v1/profiles/${id}`, { key: owner.key, json });
    expect((await put(first.body.id, { name: 'Main', primary: true })).body).toMatchObject({ name: 'Main', isPrimary: true });
    const refused = await put(first.body.id, { primary: false });
    expect(refused.body.details).toEqual([expect.objectContaining({ field: 'primary', message: expect.stringContaining('make another profile primary') })]);
    expect((await put(first.body.id, {})).body.error).toBe('VALIDATION_ERROR');
    expect((await request(app, 'PUT', `/v1/profiles/${first.body.id}`, { key: other.key, json: { name: 'x' } })).status).toBe(404);
    const g = await gql(app, owner.key, 'mutation($id: ID!) { updateProfile(id: $id, input: { name: "Side" }) { name isPrimary } }', { id: second.body.id });
    expect(g.body.data.updateProfile).toEqual({ name: 'Side', isPrimary: false });
  });

  it('are deleted only when they hold no connected account and no publication; the oldest other becomes primary', async () => {
    const owner = await createUser(app);
    const db = app.runtime.app.db;
    const make = async (name: string) => (await request(app, 'POST', '/v1/profiles', { key: owner.key, json: { name } })).body.id as string;
    const [a, b, c] = [await make('A'), await make('B'), await make('C')];
    const account = await db.socialAccount.create({ data: { profileId: b, platform: 'microblog', externalId: 'x' } });
    const del = (id: string) => request(app, 'DELETE', `/v1/profiles/${id}`, { key: owner.key });
    const busy = await del(b);
    expect(busy.status).toBe(400);
    expect(busy.body.message).toBe('The profile has 1 connected account: disconnect them first');
    await db.socialAccount.update({ where: { id: account.id }, data: { status: 'disconnected' } });
    expect((await del(b)).body).toMatchObject({ id: b, deleted: true });
    // A was primary: B is gone, so C becomes primary
    expect((await del(a)).status).toBe(200);
    const left = await request(app, 'GET', '/v1/profiles', { key: owner.key });
    expect(left.body.data).toEqual([expect.objectContaining({ id: c, isPrimary: true })]);
    expect((await del(a)).status).toBe(404);
    expect((await request(app, 'DELETE', `/v1/profiles/${c}`, { key: other.key })).status).toBe(404);
    // a publication keeps its profile: scheduled (it would fire through it) or published (its posts' analytics)
    const project = await db.project.create({ data: { userId: owner.id, title: 'P', language: 'en', templateName: 'classic' } as never });
    const publication = await db.publication.create({
      data: {
        id: 'pub_profile-test',
        userId: owner.id,
        projectId: project.id,
        projectTitle: project.title,
        profileId: c,
        scheduled: true,
        publishedAt: new Date(),
        status: 'scheduled',
        mediaKey: 'k',
      },
    });
    expect((await del(c)).body.message).toBe('The profile has 1 scheduled publication: cancel them first');
    await db.publication.update({ where: { id: publication.id }, data: { status: 'published' } });
    expect((await del(c)).body.message).toBe('The profile has 1 publication whose posts and analytics would go with it: it is kept');
    expect(await db.profile.count({ where: { id: c } })).toBe(1);
  });
});

describe('DELETE /v1/user-media/{id}', () => {
  const upload = async (key: string, bytes: Buffer | string, name: string) => {
    const form = new FormData();
    form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name);
    const r = await request(app, 'POST', '/v1/user-media/upload', { key, body: form });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.userMediaId as string;
  };
  const del = (key: string, id: string) => request(app, 'DELETE', `/v1/user-media/${id}`, { key });

  it('refuses an entry a project, a preset or a theme still draws, naming them, and deletes it with its file once free', async () => {
    const owner = await createUser(app);
    const db = app.runtime.app.db;
    const fx = await mediaFixtures();
    const image = await upload(owner.key, await fs.readFile(fx.image), path.basename(fx.image));
    const lut = await upload(owner.key, swapRedBlueCube(), 'look.cube');
    const font = await upload(owner.key, await renamedFont(SCRIPT_FONT, 'Removal Script'), 'removal.otf');
    const project = await db.project.create({
      data: {
        userId: owner.id,
        title: 'Launch video',
        language: 'en',
        templateName: 'classic',
        items: [{ type: 'user-media', userMediaId: image, mediaType: 'IMAGE', startTime: 0, endTime: 1 }],
      } as never,
    });
    const preset = await db.preset.create({
      data: {
        userId: owner.id,
        name: 'Brand',
        logo: true,
        savedLogo: { userMediaId: image },
        colorFilter: true,
        savedColorFilter: { userMediaId: lut, intensity: 60 },
      },
    });
    const theme = await request(app, 'POST', '/v1/themes', { key: owner.key, json: { name: 'Scripted', style: { font: { family: 'Removal Script' } } } });
    expect(theme.status).toBe(201);

    const used = await del(owner.key, image);
    expect(used.status).toBe(400);
    expect(used.body.details).toEqual([
      {
        field: 'id',
        value: image,
        message: `is still used by project "Launch video" (${project.id}); preset "Brand" (${preset.id}): remove it from them first`,
      },
    ]);
    expect((await del(owner.key, lut)).body.details[0].message).toContain(`preset "Brand" (${preset.id})`);
    expect((await del(owner.key, font)).body.details[0].message).toContain(`theme "Scripted" (${theme.body.id})`);
    // a second file of the family: the first can go, the family is still drawn from the second
    const second = await upload(owner.key, await renamedFont(SCRIPT_FONT, 'Removal Script', 'Bold'), 'removal-bold.otf');
    expect((await del(owner.key, font)).status).toBe(200);
    expect((await del(owner.key, second)).status).toBe(400);
    expect(await db.userMedia.count({ where: { userId: owner.id } })).toBe(3);

    // freed, it goes with its file; a second delete, another user's delete and a malformed id are 404
    await db.project.update({ where: { id: project.id }, data: { items: [] } });
    await db.preset.update({ where: { id: preset.id }, data: { logo: false, savedLogo: null as never } });
    const entry = await db.userMedia.findUniqueOrThrow({ where: { id: image } });
    const gone = await del(owner.key, image);
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ id: image, type: 'IMAGE', fileName: 'image.png', deleted: true });
    expect(await app.runtime.app.storage.stat(entry.storageKey!)).toBeNull();
    expect((await del(owner.key, image)).status).toBe(404);
    expect((await del(other.key, lut)).status).toBe(404);
    expect((await del(owner.key, 'not-a-uuid')).status).toBe(404);
    // the same through GraphQL
    await db.preset.update({ where: { id: preset.id }, data: { colorFilter: false, savedColorFilter: null as never } });
    const g = await gql(app, owner.key, 'mutation($id: ID!) { deleteUserMedia(id: $id) { id type } }', { id: lut });
    expect(g.body.data.deleteUserMedia).toEqual({ id: lut, type: 'LUT' });
  });

  it('refuses an entry whose file is still being fetched', async () => {
    const owner = await createUser(app);
    const pending = await app.runtime.app.db.userMedia.create({
      data: { userId: owner.id, type: 'VIDEO', status: 'pending', fileName: 'x.mp4', sourceUrl: 'https://media.example/x.mp4' },
    });
    const r = await del(owner.key, pending.id);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'BAD_REQUEST', message: expect.stringContaining('still being fetched') });
  });
});
