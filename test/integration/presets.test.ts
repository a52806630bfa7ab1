import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma } from '../../src/db/client.js';
import { createPresetWithSavedMedia } from '../../src/presets/cli-media.js';
import { createPresetFromProject, presetProjectSettings, type Preset } from '../../src/presets/service.js';
import { createUser, gql, request, startTestApp, type Answer, type TestApp, type TestUser } from '../support/app.js';

let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  app = await startTestApp({ role: 'server' });
  user = await createUser(app);
});
afterAll(async () => {
  await app?.stop();
});

const db = () => app.runtime.app.db;

/** Saved media as the editor would leave it (the API cannot make it). */
const SAVED = {
  captions: { savedCaptions: { templateName: 'neon' } },
  hookTitle: { savedHookTitle: { text: 'Wait for it', template: 'banner' } },
  logo: { savedLogo: { userMediaId: randomUUID(), position: 'top-right', sizePercent: 15, opacity: 90, marginPercent: 4 } },
  colorFilter: { savedColorFilter: { name: 'warm', intensity: 60 } },
  music: { savedMusic: { userMediaId: randomUUID(), volume: 40, fade: true }, musicVolume: 40 },
} satisfies Record<string, Partial<Prisma.PresetUncheckedCreateInput>>;
const ALL_SAVED = Object.assign({}, ...Object.values(SAVED)) as Partial<Prisma.PresetUncheckedCreateInput>;

/** A new preset's toggles and numbers, as the schema defaults them. */
const DEFAULTS = {
  description: null,
  captions: false,
  hookTitle: false,
  magicZooms: false,
  magicBrolls: false,
  magicBrollsPercentage: 50,
  magicBrollsTransitions: false,
  logo: false,
  colorFilter: false,
  cleanAudio: false,
  eyeContactCorrection: false,
  music: false,
  musicVolume: null,
  transitionSoundVolume: null,
  sourceProjectId: null,
};

const makePreset = (owner: TestUser, data: Partial<Prisma.PresetUncheckedCreateInput> = {}) =>
  db().preset.create({ data: { userId: owner.id, name: `Preset ${Math.random().toString(36).slice(2, 8)}`, ...data } });

/** `count` presets of `owner`, one second apart, the last one newest. */
async function makePresets(owner: TestUser, count: number, newest = new Date()) {
  const rows = Array.from({ length: count }, (_, i) => ({
    userId: owner.id,
    name: `Bulk ${i}`,
    createdAt: new Date(newest.getTime() - (count - 1 - i) * 1000),
  }));
  await db().preset.createMany({ data: rows });
  return db().preset.findMany({ where: { userId: owner.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

const PRESET_KEYS = [
  'id',
  'name',
  'description',
  'captions',
  'hookTitle',
  'magicZooms',
  'magicBrolls',
  'magicBrollsPercentage',
  'magicBrollsTransitions',
  'logo',
  'colorFilter',
  'cleanAudio',
  'eyeContactCorrection',
  'music',
  'musicVolume',
  'transitionSoundVolume',
  'configured',
  'sourceProjectId',
  'createdAt',
  'updatedAt',
];
const PRESET_SELECTION = PRESET_KEYS.map((k) => (k === 'configured' ? 'configured { captions hookTitle logo colorFilter music }' : k)).join(' ');

const list = (key: string, query = '') => request(app, 'GET', `/v1/presets${query}`, { key });
const put = (key: string, id: string, json: unknown) => request(app, 'PUT', `/v1/presets/${id}`, { key, json });
const gqlUpdate = (key: string, id: string, input: unknown) =>
  gql(app, key, `mutation($id: ID!, $input: UpdatePresetInput!) { updatePreset(id: $id, input: $input) { ${PRESET_SELECTION} } }`, { id, input });
const gqlPage = (key: string, vars: { first?: number; after?: string }) =>
  gql(
    app,
    key,
    'query($first: Int, $after: String) { presets(first: $first, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }',
    vars,
  );

/** A 400 VALIDATION_ERROR with exactly one details entry per named field. */
function expectFields(r: Answer, fields: string[]) {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.error).toBe('VALIDATION_ERROR');
  expect(r.body.details.map((d: { field: string }) => d.field).sort()).toEqual([...fields].sort());
}

/** The same, as the GraphQL door reports it. */
function expectGqlFields(r: Answer, fields: string[]) {
  const ext = r.body.errors?.[0]?.extensions;
  expect(ext?.code, JSON.stringify(r.body)).toBe('VALIDATION_ERROR');
  expect(ext.details.map((d: { field: string }) => d.field).sort()).toEqual([...fields].sort());
}

function expectPresetNotFound(r: Answer) {
  expect(r.status).toBe(404);
  expect(r.body).toEqual({ error: 'NOT_FOUND', message: 'Preset not found' });
}

describe('GET /v1/presets', () => {
  it('lists the Preset fields of SPEC.md, newest first, with hasMore false and no nextCursor', async () => {
    const owner = await createUser(app);
    const old = await makePreset(owner, { createdAt: new Date(Date.now() - 60_000), ...SAVED.music, music: true, description: 'kit' });
    const recent = await makePreset(owner);
    const r = await list(owner.key);
    expect(r.status).toBe(200);
    expect(r.body.pagination).toEqual({ hasMore: false });
    expect(r.body.data.map((p: { id: string }) => p.id)).toEqual([recent.id, old.id]);
    expect(Object.keys(r.body.data[1]).sort()).toEqual([...PRESET_KEYS].sort());
    expect(r.body.data[1]).toEqual({
      ...DEFAULTS,
      id: old.id,
      name: old.name,
      description: 'kit',
      music: true,
      musicVolume: 40,
      configured: { captions: false, hookTitle: false, logo: false, colorFilter: false, music: true },
      createdAt: old.createdAt.toISOString(),
      updatedAt: old.updatedAt.toISOString(),
    });
  });

  it('pages of 50 by default; a walk sees every preset once while new ones arrive', async () => {
    const owner = await createUser(app);
    const all = await makePresets(owner, 120, new Date(Date.now() - 10_000));
    const first = await list(owner.key);
    expect(first.body.data).toHaveLength(50);

    const seen: string[] = [];
    const pages: Array<{ hasMore: boolean; nextCursor?: string }> = [];
    let cursor: string | undefined;
    do {
      const r = await list(owner.key, `?limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map((p: { id: string }) => p.id));
      pages.push(r.body.pagination);
      cursor = r.body.pagination.nextCursor;
      await makePreset(owner); // created between page requests: newer than the walk
    } while (cursor);
    expect(pages).toHaveLength(3);
    expect(pages.map((p) => p.hasMore)).toEqual([true, true, false]);
    expect(pages[0].nextCursor).toBe(all[49].id);
    expect('nextCursor' in pages[2]).toBe(false);
    expect(seen).toEqual(all.map((p) => p.id));
  });

  it('the GraphQL connection gives the same pages as REST', async () => {
    const owner = await createUser(app);
    await makePresets(owner, 7);
    const rest: string[][] = [];
    const graph: string[][] = [];
    let cursor: string | undefined;
    let after: string | undefined;
    for (let i = 0; i < 3; i++) {
      const r = await list(owner.key, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      const g = await gqlPage(owner.key, { first: 3, after });
      const conn = g.body.data.presets;
      rest.push(r.body.data.map((p: { id: string }) => p.id));
      graph.push(conn.edges.map((e: { node: { id: string } }) => e.node.id));
      expect(conn.edges.map((e: { cursor: string }) => e.cursor)).toEqual(graph.at(-1));
      expect(conn.pageInfo.hasNextPage).toBe(r.body.pagination.hasMore);
      if (r.body.pagination.hasMore) expect(conn.pageInfo.endCursor).toBe(r.body.pagination.nextCursor);
      cursor = r.body.pagination.nextCursor;
      after = conn.pageInfo.endCursor;
    }
    expect(graph).toEqual(rest);
    expect(rest.map((p) => p.length)).toEqual([3, 3, 1]);
  });

  it.each(['abc', '1.5', '0', '101', '-1', '', '99999999999', '5&limit=6'])('limit=%s is 400 VALIDATION_ERROR on limit', async (limit) => {
    expectFields(await list(user.key, `?limit=${limit}`), ['limit']);
  });

  it('limit 1 and 100 are accepted; GraphQL reports first out of range as limit too', async () => {
    await makePreset(user);
    for (const limit of [1, 100]) expect((await list(user.key, `?limit=${limit}`)).status).toBe(200);
    expectGqlFields(await gqlPage(user.key, { first: 0 }), ['limit']);
  });

  it("a cursor that is not a UUID, unknown, or another user's preset is 400 on cursor, through both doors", async () => {
    const other = await createUser(app);
    const foreign = await makePreset(other);
    for (const cursor of ['abc', randomUUID(), foreign.id]) {
      expectFields(await list(user.key, `?cursor=${cursor}`), ['cursor']);
      expectGqlFields(await gqlPage(user.key, { after: cursor }), ['cursor']);
    }
  });

  it("a user never sees another user's presets", async () => {
    const [a, b] = [await createUser(app), await createUser(app)];
    const mine = await makePreset(b);
    await makePresets(a, 3);
    const r = await list(b.key, '?limit=100');
    expect(r.body.data.map((p: { id: string }) => p.id)).toEqual([mine.id]);
  });

  it('sends the rate-limit headers of the list presets limit (1000 per hour), counted across both doors', async () => {
    const owner = await createUser(app);
    const answers = [await list(owner.key), await list(owner.key, '?limit=0'), await gqlPage(owner.key, {})];
    expect(answers.map((r) => r.status)).toEqual([200, 400, 200]);
    expect(answers.map((r) => r.headers.get('x-ratelimit-limit'))).toEqual(['1000', '1000', '1000']);
    expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['999', '998', '997']);
  });
});

describe('GET /v1/presets/{id}', () => {
  it('answers the Preset, as GraphQL preset(id) does', async () => {
    const p = await makePreset(user, { ...SAVED.captions, captions: true });
    const r = await request(app, 'GET', `/v1/presets/${p.id}`, { key: user.key });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: p.id, name: p.name, captions: true, configured: { captions: true, music: false } });
    const g = await gql(app, user.key, `query($id: ID!) { preset(id: $id) { ${PRESET_SELECTION} } }`, { id: p.id });
    expect(g.body.data.preset).toEqual(r.body);
  });

  it("a missing, malformed or another user's id is 404 Preset not found", async () => {
    const other = await createUser(app);
    const foreign = await makePreset(other);
    for (const id of [randomUUID(), 'not-a-uuid', foreign.id]) {
      expectPresetNotFound(await request(app, 'GET', `/v1/presets/${id}`, { key: user.key }));
      const g = await gql(app, user.key, 'query($id: ID!) { preset(id: $id) { id } }', { id });
      expect(g.body.errors?.[0]).toMatchObject({ message: 'Preset not found', extensions: { code: 'NOT_FOUND' } });
    }
  });
});

describe('PUT /v1/presets/{id}', () => {
  it('renames and returns the updated Preset; updatedAt moves, createdAt stays', async () => {
    const p = await makePreset(user, { createdAt: new Date(Date.now() - 5000), updatedAt: new Date(Date.now() - 5000) });
    const r = await put(user.key, p.id, { name: '  Spaced name ' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([...PRESET_KEYS].sort());
    expect(r.body).toMatchObject({ id: p.id, name: '  Spaced name ', createdAt: p.createdAt.toISOString() });
    expect(Date.parse(r.body.updatedAt)).toBeGreaterThan(p.updatedAt.getTime());
    expect((await request(app, 'GET', `/v1/presets/${p.id}`, { key: user.key })).body).toEqual(r.body);
  });

  it('switches every plain toggle both ways and sets the numbers at their bounds', async () => {
    const p = await makePreset(user);
    const on = { magicZooms: true, magicBrolls: true, magicBrollsTransitions: true, cleanAudio: true, eyeContactCorrection: true };
    const numbers = { magicBrollsPercentage: 0, transitionSoundVolume: 100, description: 'd'.repeat(500), name: 'n'.repeat(100) };
    const r = await put(user.key, p.id, { ...on, ...numbers });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ...on, ...numbers });
    const off = Object.fromEntries(Object.keys(on).map((k) => [k, false]));
    const r2 = await put(user.key, p.id, { ...off, magicBrollsPercentage: 100, transitionSoundVolume: 0, description: '' });
    expect(r2.body).toMatchObject({ ...off, magicBrollsPercentage: 100, transitionSoundVolume: 0, description: '' });
  });

  it('null clears the description and switches transition sounds off', async () => {
    const p = await makePreset(user, { description: 'old', transitionSoundVolume: 30 });
    const r = await put(user.key, p.id, { description: null, transitionSoundVolume: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ description: null, transitionSoundVolume: null });
  });

  it('an empty body is 400 VALIDATION_ERROR', async () => {
    const p = await makePreset(user);
    expectFields(await put(user.key, p.id, {}), ['body']);
    expectFields(await request(app, 'PUT', `/v1/presets/${p.id}`, { key: user.key }), ['body']);
    expectFields(await put(user.key, p.id, [{ name: 'x' }]), ['body']);
  });

  it('a media toggle can be enabled only when its media is saved; each violation is named', async () => {
    const bare = await makePreset(user);
    for (const kind of Object.keys(SAVED)) expectFields(await put(user.key, bare.id, { [kind]: true }), [kind]);
    expectFields(await put(user.key, bare.id, { captions: true, hookTitle: true, logo: true, colorFilter: true, music: true }), Object.keys(SAVED));
    // false is always allowed
    const off = await put(user.key, bare.id, { captions: false, hookTitle: false, logo: false, colorFilter: false, music: false });
    expect(off.status).toBe(200);

    const full = await makePreset(user, ALL_SAVED);
    const on = await put(user.key, full.id, { captions: true, hookTitle: true, logo: true, colorFilter: true, music: true });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ captions: true, hookTitle: true, logo: true, colorFilter: true, music: true });
    expect(on.body.configured).toEqual({ captions: true, hookTitle: true, logo: true, colorFilter: true, music: true });
  });

  it('enabling music without saved music is 400 with a message that says why', async () => {
    const p = await makePreset(user, { ...SAVED.captions });
    const r = await put(user.key, p.id, { music: true });
    expectFields(r, ['music']);
    expect(r.body.details[0]).toEqual({ field: 'music', message: expect.stringMatching(/saved music/), value: true });
  });

  it('musicVolume is 1-100 and settable only when music is configured', async () => {
    const bare = await makePreset(user);
    expectFields(await put(user.key, bare.id, { musicVolume: 50 }), ['musicVolume']);
    const withMusic = await makePreset(user, SAVED.music);
    for (const musicVolume of [1, 100]) expect((await put(user.key, withMusic.id, { musicVolume })).body.musicVolume).toBe(musicVolume);
    for (const musicVolume of [0, 101, 50.5, '50', null, true]) expectFields(await put(user.key, withMusic.id, { musicVolume }), ['musicVolume']);
  });

  it.each([
    ['name', ['', '   ', 'n'.repeat(101), 5, null]],
    ['description', ['d'.repeat(501), 5, false]],
    ['magicBrollsPercentage', [-1, 101, 1.5, '50', null]],
    ['transitionSoundVolume', [-1, 101, 2.5, '5', true]],
    ['cleanAudio', ['true', 1, null]],
    ['magicZooms', ['yes', 0, null]],
    ['eyeContactCorrection', [{}, [], null]],
  ] as const)('%s refuses wrong values and types, naming the field', async (field, values) => {
    const p = await makePreset(user);
    for (const value of values) {
      const r = await put(user.key, p.id, { [field]: value });
      expectFields(r, [field]);
      expect(r.body.details[0]).toMatchObject({ field, message: expect.any(String), value });
    }
  });

  it('unknown fields are refused by name, read-only ones included', async () => {
    const p = await makePreset(user);
    expectFields(await put(user.key, p.id, { name: 'ok', colour: true, configured: { music: true }, id: randomUUID() }), ['colour', 'configured', 'id']);
    expectFields(await put(user.key, p.id, { savedMusic: {}, sourceProjectId: randomUUID() }), ['savedMusic', 'sourceProjectId']);
  });

  it('reports every violated field at once, one entry each, and changes nothing', async () => {
    const p = await makePreset(user);
    const body = {
      name: '',
      description: 'x'.repeat(501),
      captions: true,
      magicZooms: 'yes',
      musicVolume: 0,
      transitionSoundVolume: 'loud',
      magicBrollsPercentage: 101,
      cleanAudio: true,
      foo: 1,
    };
    const fields = ['name', 'description', 'captions', 'magicZooms', 'musicVolume', 'transitionSoundVolume', 'magicBrollsPercentage', 'foo'];
    const r = await put(user.key, p.id, body);
    expectFields(r, fields);
    expect(r.body.message).toMatch(/8 fields/);
    expect(await db().preset.findUniqueOrThrow({ where: { id: p.id } })).toEqual(p);
    // over GraphQL the typed input refuses values of the wrong type (and unknown fields) first, then the rules name the rest
    expectGqlFields(await gqlUpdate(user.key, p.id, body), ['magicZooms', 'transitionSoundVolume', 'foo']);
    const { magicZooms: _zooms, transitionSoundVolume: _volume, foo: _foo, ...typed } = body;
    expectGqlFields(await gqlUpdate(user.key, p.id, typed), ['name', 'description', 'captions', 'musicVolume', 'magicBrollsPercentage']);
  });

  it("user B can neither read nor change user A's preset", async () => {
    const [a, b] = [await createUser(app), await createUser(app)];
    const p = await makePreset(a);
    expectPresetNotFound(await put(b.key, p.id, { name: 'Mine now' }));
    expectPresetNotFound(await request(app, 'GET', `/v1/presets/${p.id}`, { key: b.key }));
    expectPresetNotFound(await put(b.key, randomUUID(), { name: 'Nobody' }));
    expectPresetNotFound(await put(b.key, 'not-a-uuid', { name: 'Nobody' }));
    expect(await db().preset.findUniqueOrThrow({ where: { id: p.id } })).toEqual(p);
    const g = await gqlUpdate(b.key, p.id, { name: 'Mine now' });
    expect(g.body.errors?.[0]).toMatchObject({ message: 'Preset not found', extensions: { code: 'NOT_FOUND' } });
  });

  it('GraphQL updatePreset: same rules, and an explicit null is told from an absent field', async () => {
    const p = await makePreset(user, { description: 'keep me', transitionSoundVolume: 20 });
    const g = await gqlUpdate(user.key, p.id, { magicZooms: true });
    expect(g.body.data.updatePreset).toMatchObject({ magicZooms: true, description: 'keep me', transitionSoundVolume: 20 });
    // inline literals too: null clears, absent keeps
    const inline = await gql(
      app,
      user.key,
      `mutation($id: ID!) { updatePreset(id: $id, input: { transitionSoundVolume: null }) { description transitionSoundVolume } }`,
      {
        id: p.id,
      },
    );
    expect(inline.body.data.updatePreset).toEqual({ description: 'keep me', transitionSoundVolume: null });
    expectGqlFields(await gqlUpdate(user.key, p.id, { magicZooms: null }), ['magicZooms']);
    expectGqlFields(await gqlUpdate(user.key, p.id, {}), ['body']);
  });

  it('sends the rate-limit headers of the update preset limit (500 per hour), counted across both doors', async () => {
    const owner = await createUser(app);
    const p = await makePreset(owner);
    const answers = [await put(owner.key, p.id, { name: 'Limited' }), await put(owner.key, p.id, {}), await gqlUpdate(owner.key, p.id, { name: 'Again' })];
    expect(answers.map((r) => r.status)).toEqual([200, 400, 200]);
    expect(answers.map((r) => r.headers.get('x-ratelimit-limit'))).toEqual(['500', '500', '500']);
    expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['499', '498', '497']);
  });
});

/** A project row as project creation would leave it (projects have no API yet). */
const makeProject = (owner: TestUser, data: Partial<Prisma.ProjectUncheckedCreateInput> = {}) =>
  db().project.create({ data: { userId: owner.id, title: 'Talk', language: 'en', templateName: 'classic', ...data } });

describe('createPresetFromProject', () => {
  const CREATE = `mutation($projectId: ID!, $name: String!, $description: String) {
    createPresetFromProject(projectId: $projectId, name: $name, description: $description) { ${PRESET_SELECTION} }
  }`;

  it("copies a project's settings and media into a new preset", async () => {
    const theme = await db().userTheme.create({ data: { userId: user.id, name: 'Bold' } });
    const music = { userMediaId: randomUUID(), volume: 35, startFromTime: 2, fade: false };
    const hookTitle = { text: 'Three tips', template: 'banner', top: 20, size: 30 };
    const settings = {
      templateName: 'spotlight',
      userThemeId: theme.id,
      captionPositionY: 60,
      hookTitle,
      music,
      magicZooms: true,
      magicBrolls: true,
      magicBrollsPercentage: 30,
      cleanAudio: true,
    };
    const project = await makeProject(user, settings);
    const g = await gql(app, user.key, CREATE, { projectId: project.id, name: 'From talk', description: 'made from a project' });
    const preset = g.body.data.createPresetFromProject;
    expect(preset).toMatchObject({
      name: 'From talk',
      description: 'made from a project',
      sourceProjectId: project.id,
      captions: true,
      hookTitle: true,
      music: true,
      musicVolume: 35,
      magicZooms: true,
      magicBrolls: true,
      magicBrollsPercentage: 30,
      cleanAudio: true,
      logo: false,
      colorFilter: false,
      eyeContactCorrection: false,
      configured: { captions: true, hookTitle: true, logo: false, colorFilter: false, music: true },
    });
    const row = await db().preset.findUniqueOrThrow({ where: { id: preset.id } });
    expect(row).toMatchObject({ userId: user.id, savedHookTitle: hookTitle, savedMusic: music, savedLogo: null, savedColorFilter: null });
    expect(row.savedCaptions).toEqual({ templateName: 'spotlight', userThemeId: theme.id, captionPositionY: 60 });
    // the preset gives a new project what the source project had
    expect(presetProjectSettings(row)).toEqual(settings);
    // and it is listed like any other preset
    const listed = await list(user.key, '?limit=1');
    expect(listed.body.data[0]).toEqual(preset);
  });

  it('captions disabled: the caption template is saved but the toggle is off; no hook or music stays unconfigured', async () => {
    const project = await makeProject(user, { disableCaptions: true });
    const preset = await createPresetFromProject(db(), user.id, project.id, { name: 'Quiet' });
    expect(preset).toMatchObject({
      captions: false,
      hookTitle: false,
      music: false,
      musicVolume: null,
      description: null,
      savedHookTitle: null,
      savedMusic: null,
    });
    expect(preset.savedCaptions).toEqual({ templateName: 'classic' });
  });

  it("a missing, malformed or another user's project is 404 Project not found", async () => {
    const other = await createUser(app);
    const foreign = await makeProject(other);
    for (const projectId of [randomUUID(), 'nope', foreign.id]) {
      const g = await gql(app, user.key, CREATE, { projectId, name: 'X' });
      expect(g.body.errors?.[0]).toMatchObject({ message: 'Project not found', extensions: { code: 'NOT_FOUND' } });
    }
    expect(await db().preset.count({ where: { sourceProjectId: foreign.id } })).toBe(0);
  });

  it('name and description follow the preset rules', async () => {
    const project = await makeProject(user);
    expectGqlFields(await gql(app, user.key, CREATE, { projectId: project.id, name: ' ', description: 'd'.repeat(501) }), ['name', 'description']);
    expectGqlFields(await gql(app, user.key, CREATE, { projectId: project.id, name: 'n'.repeat(101) }), ['name']);
    expect(await db().preset.count({ where: { sourceProjectId: project.id } })).toBe(0);
  });
});

describe('presetProjectSettings', () => {
  const preset = (data: Partial<Preset>): Preset => ({
    ...DEFAULTS,
    id: randomUUID(),
    userId: randomUUID(),
    name: 'P',
    savedCaptions: null,
    savedHookTitle: null,
    savedLogo: null,
    savedColorFilter: null,
    savedMusic: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...data,
  });

  it('applies nothing when every toggle is off, saved media or not', () => {
    expect(presetProjectSettings(preset({ ...(ALL_SAVED as Partial<Preset>), magicBrollsPercentage: 80 }))).toEqual({});
  });

  it('captions on: the saved template, theme and position', () => {
    const userThemeId = randomUUID();
    const savedCaptions = { templateName: 'karaoke', userThemeId, captionPositionY: 40, captionPositionX: 55 };
    expect(presetProjectSettings(preset({ captions: true, savedCaptions }))).toEqual({
      templateName: 'karaoke',
      userThemeId,
      captionPositionY: 40,
      captionPositionX: 55,
    });
    // what the editor saved beyond those is the renderer's business
    expect(presetProjectSettings(preset({ captions: true, savedCaptions: { templateName: 'classic', fontSize: 64 } }))).toEqual({ templateName: 'classic' });
    // a toggle on without media applies nothing
    expect(presetProjectSettings(preset({ captions: true }))).toEqual({});
  });

  it('hook title on: the saved hook title as is', () => {
    expect(presetProjectSettings(preset({ hookTitle: true, savedHookTitle: true }))).toEqual({ hookTitle: true });
    expect(presetProjectSettings(preset({ hookTitle: true, savedHookTitle: { text: 'Hi' } }))).toEqual({ hookTitle: { text: 'Hi' } });
  });

  it("music on: the saved music at the preset's volume, else the saved volume", () => {
    const savedMusic = { userMediaId: randomUUID(), volume: 40, fade: true };
    expect(presetProjectSettings(preset({ music: true, savedMusic, musicVolume: 75 }))).toEqual({ music: { ...savedMusic, volume: 75 } });
    expect(presetProjectSettings(preset({ music: true, savedMusic }))).toEqual({ music: savedMusic });
  });

  it('zooms, B-roll with its percentage, audio clean-up, the logo and the colour look; eye contact and transitions have no project setting', () => {
    expect(presetProjectSettings(preset({ magicZooms: true, magicBrolls: true, magicBrollsPercentage: 20, cleanAudio: true }))).toEqual({
      magicZooms: true,
      magicBrolls: true,
      magicBrollsPercentage: 20,
      cleanAudio: true,
    });
    expect(
      presetProjectSettings(
        preset({ ...(ALL_SAVED as Partial<Preset>), logo: true, colorFilter: true, eyeContactCorrection: true, magicBrollsTransitions: true }),
      ),
    ).toEqual({ logo: SAVED.logo.savedLogo, colorFilter: SAVED.colorFilter.savedColorFilter });
  });
});

describe("a preset with the editor's saved media (what the operator CLI makes)", () => {
  it('the given kinds hold what the editor saves, their toggles stay off until enabled, music volume starts at the saved one', async () => {
    const core = app.runtime.app;
    const p = await createPresetWithSavedMedia(core, user.id, 'Brand kit', ['captions', 'music']);
    expect(p).toMatchObject({
      ...DEFAULTS,
      userId: user.id,
      name: 'Brand kit',
      savedCaptions: { templateName: 'highlight' },
      savedMusic: { userMediaId: expect.any(String), volume: 50, startFromTime: 0, fade: true, source: 'library' },
      musicVolume: 50,
    });
    // the music is a real file of the user's library: ready, audio, 20 s
    const music = await core.db.userMedia.findUniqueOrThrow({ where: { id: (p.savedMusic as { userMediaId: string }).userMediaId } });
    expect(music).toMatchObject({ userId: user.id, type: 'AUDIO', status: 'ready' });
    expect((music.metadata as { duration: number }).duration).toBeCloseTo(20, 0);
    expect([p.savedHookTitle, p.savedLogo, p.savedColorFilter]).toEqual([null, null, null]);

    const got = await request(app, 'GET', `/v1/presets/${p.id}`, { key: user.key });
    expect(got.body.configured).toEqual({ captions: true, hookTitle: false, logo: false, colorFilter: false, music: true });
    const on = await put(user.key, p.id, { captions: true, music: true, musicVolume: 80 });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expectFields(await put(user.key, p.id, { logo: true }), ['logo']);
  });

  it('no kinds: nothing saved, no music volume', async () => {
    const p = await createPresetWithSavedMedia(app.runtime.app, user.id, 'Plain', []);
    expect(p).toMatchObject({ ...DEFAULTS, savedCaptions: null, savedHookTitle: null, savedLogo: null, savedColorFilter: null, savedMusic: null });
  });
});
