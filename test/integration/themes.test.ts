/**
 * User themes: a caption template with a user's changes to its style, through
 * GraphQL and /v1/themes; every rule of the style schema named by its path.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVE_WORD_EFFECTS, PAGE_ENTRANCES, STYLE_FONTS } from '../../src/catalog/caption-style.js';
import { CAPTION_TEMPLATES, DEFAULT_CAPTION_TEMPLATE, findCaptionTemplate } from '../../src/catalog/caption-templates.js';
import { findUserTheme } from '../../src/themes/service.js';
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

const FIELDS = 'id name basedOn changes style createdAt updatedAt';
const CHANGES = {
  font: { family: 'Roboto', size: 80, case: 'upper' },
  fill: '#FFFFFF',
  box: { color: '#00000080', padding: 10 },
  activeWord: { effect: 'box', color: '#ffd400' },
  layout: { wordsPerLine: 2, linesPerPage: 2 },
  entrance: { effect: 'pop', duration: 150 },
  emphasis: { rules: ['numbers', 'listed'], words: ['free'], color: '#FF0000', scale: 120 },
  emoji: 'keywords',
};
const FULL = { name: 'Bold yellow', basedOn: 'neon', style: CHANGES };

const create = (key: string, input: Record<string, unknown>) =>
  gql(app, key, `mutation($input: UserThemeInput!) { createUserTheme(input: $input) { ${FIELDS} } }`, { input });
const update = (key: string, id: string, input: Record<string, unknown>) =>
  gql(app, key, `mutation($id: ID!, $input: UserThemeInput!) { updateUserTheme(id: $id, input: $input) { ${FIELDS} } }`, { id, input });
const remove = (key: string, id: string) => gql(app, key, 'mutation($id: ID!) { deleteUserTheme(id: $id) { id name } }', { id });
const themes = async (key: string) => (await gql(app, key, `{ userThemes { ${FIELDS} } }`)).body.data.userThemes as Array<Record<string, any>>;

async function created(key: string, input: Record<string, unknown>) {
  const r = await create(key, input);
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
  return r.body.data.createUserTheme as Record<string, any>;
}

/** A VALIDATION_ERROR with one details entry per named field. */
function expectFields(r: Answer, fields: string[]) {
  const ext = r.body.errors?.[0]?.extensions;
  expect(ext?.code, JSON.stringify(r.body)).toBe('VALIDATION_ERROR');
  expect(ext.details.map((d: { field: string }) => d.field).sort()).toEqual([...fields].sort());
}

function expectThemeNotFound(r: Answer) {
  expect(r.body.errors?.[0]).toMatchObject({ message: 'User theme not found', extensions: { code: 'NOT_FOUND' } });
}

describe('user themes', () => {
  it('creates a theme from a template and changes, or from a name only (the default template)', async () => {
    const full = await created(user.key, FULL);
    expect(full).toMatchObject({ name: FULL.name, basedOn: 'neon', changes: CHANGES });
    // the whole style: the template's, with the changes laid over group by group
    const neon = findCaptionTemplate('neon')!.style;
    expect(full.style).toEqual({
      ...neon,
      ...CHANGES,
      font: { ...neon.font, ...CHANGES.font },
      activeWord: { ...neon.activeWord, ...CHANGES.activeWord },
      layout: { ...neon.layout, ...CHANGES.layout },
    });
    const bare = await created(user.key, { name: 'Just a name' });
    expect(bare).toMatchObject({ name: 'Just a name', basedOn: DEFAULT_CAPTION_TEMPLATE.name, changes: {}, style: DEFAULT_CAPTION_TEMPLATE.style });
  });

  it('accepts every font, active-word effect, entrance and template', async () => {
    for (const family of STYLE_FONTS) await created(user.key, { name: family, style: { font: { family } } });
    for (const effect of ACTIVE_WORD_EFFECTS) await created(user.key, { name: effect, style: { activeWord: { effect } } });
    for (const effect of PAGE_ENTRANCES) await created(user.key, { name: effect, style: { entrance: { effect } } });
    for (const t of CAPTION_TEMPLATES) expect((await created(user.key, { name: t.name, basedOn: t.name })).style).toEqual(t.style);
  });

  it('lists your themes newest first, never those of another user', async () => {
    const [a, b] = [await createUser(app), await createUser(app)];
    const first = await created(a.key, { name: 'First' });
    const second = await created(a.key, { name: 'Second' });
    await created(b.key, { name: 'Not yours' });
    expect((await themes(a.key)).map((t) => t.id)).toEqual([second.id, first.id]);
    expect((await themes(b.key)).map((t) => t.name)).toEqual(['Not yours']);
  });

  it.each([
    ['name', ['', '   ', 'n'.repeat(101)]],
    ['basedOn', ['fancy', '']],
    ['style.font.family', ['Comic Sans', 'roboto']],
    ['style.font.size', [15, 241, 100.5]],
    ['style.font.weight', [99, 901]],
    ['style.font.case', ['title']],
    ['style.fill', ['red', '#FFF', '#GGGGGG', '#FFFFFFF', 'FFFFFF']],
    ['style.outline.glow', [21]],
    ['style.box.padding', [61]],
    ['style.layout.wordsPerLine', [0, 13]],
    ['style.layout.linesPerPage', [0, 4]],
    ['style.layout.positionY', [81]],
    ['style.activeWord.effect', ['glow', 'BOX']],
    ['style.activeWord.scale', [99, 181]],
    ['style.entrance.effect', ['spin']],
    ['style.entrance.duration', [1001]],
    ['style.emoji', ['always']],
  ] as const)('%s: out-of-rule values are VALIDATION_ERROR naming the field', async (field, values) => {
    for (const value of values) {
      const path = field.split('.');
      const input: Record<string, any> = { name: 'T' };
      let at = input;
      for (const key of path.slice(0, -1)) at = at[key] ??= {};
      at[path.at(-1)!] = value;
      const r = await create(user.key, input);
      expectFields(r, [field]);
      expect(r.body.errors?.[0].extensions?.details[0]).toMatchObject({ field, value });
    }
  });

  it('a missing name, wrong types, wrong lists and unknown fields name the field too', async () => {
    expectFields(await create(user.key, { style: { fill: '#FFFFFF' } }), ['name']);
    expectFields(await create(user.key, { name: 'T', style: { font: { size: 'big' } } }), ['style.font.size']);
    expectFields(await create(user.key, { name: 'T', style: { font: { colour: '#FFFFFF' } } }), ['style.font.colour']);
    expectFields(await create(user.key, { name: 'T', style: { emphasis: { rules: ['numbers', 'everything'] } } }), ['style.emphasis.rules[1]']);
    expectFields(await create(user.key, { name: 'T', style: { emphasis: { words: Array.from({ length: 51 }, (_, i) => `w${i}`) } } }), [
      'style.emphasis.words',
    ]);
    expectFields(await create(user.key, { name: 'T', colour: '#FFFFFF' }), ['colour']);
    expectFields(await create(user.key, { name: 'T', style: { fill: null } }), ['style.fill']);
  });

  it('reports every violated field at once and creates nothing', async () => {
    const owner = await createUser(app);
    const r = await create(owner.key, {
      name: '',
      basedOn: 'nope',
      style: { font: { family: 'Papyrus', size: 500 }, fill: 'white', activeWord: { effect: 'glow' }, layout: { wordsPerLine: 99 } },
    });
    expectFields(r, ['name', 'basedOn', 'style.font.family', 'style.font.size', 'style.fill', 'style.activeWord.effect', 'style.layout.wordsPerLine']);
    expect(await themes(owner.key)).toEqual([]);
  });

  it('updates lay the given style over the theme’s own; null clears the box; updatedAt moves', async () => {
    const theme = await created(user.key, FULL);
    const r = await update(user.key, theme.id, { style: { font: { size: 16 }, layout: { wordsPerLine: 12 }, box: null } });
    const changed = r.body.data.updateUserTheme;
    expect(changed.changes).toEqual({ ...CHANGES, font: { ...CHANGES.font, size: 16 }, layout: { ...CHANGES.layout, wordsPerLine: 12 }, box: null });
    expect(changed.style.box).toBeNull();
    expect(changed.style.font).toMatchObject({ family: 'Roboto', size: 16, case: 'upper' });
    expect(changed.createdAt).toBe(theme.createdAt);
    expect(Date.parse(changed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(theme.updatedAt));
    // another template under the same changes
    const moved = (await update(user.key, theme.id, { basedOn: 'karaoke' })).body.data.updateUserTheme;
    expect(moved.style.entrance).toEqual(CHANGES.entrance);
    expect(moved.style.outline).toEqual(findCaptionTemplate('karaoke')!.style.outline);
  });

  it('an update needs a field, and a name cannot be cleared', async () => {
    const theme = await created(user.key, { name: 'Keep' });
    expectFields(await update(user.key, theme.id, {}), ['body']);
    expectFields(await update(user.key, theme.id, { name: null, style: { font: { size: 300 } } }), ['name', 'style.font.size']);
    expect((await themes(user.key)).find((t) => t.id === theme.id)).toMatchObject({ name: 'Keep', changes: {} });
  });

  it("another user's, a missing or a malformed theme id is NOT_FOUND", async () => {
    const other = await createUser(app);
    const theme = await created(user.key, { name: 'Private' });
    for (const id of [theme.id, randomUUID(), 'nope']) {
      expectThemeNotFound(await update(other.key, id, { name: 'Mine' }));
      expectThemeNotFound(await remove(other.key, id));
      expectThemeNotFound(await gql(app, other.key, 'query($id: ID!) { userTheme(id: $id) { id } }', { id }));
    }
    expect((await themes(user.key)).find((t) => t.id === theme.id)).toMatchObject({ name: 'Private' });
  });

  it('deletes a theme; projects that used it keep their template', async () => {
    const theme = await created(user.key, { name: 'Short-lived' });
    const db = app.runtime.app.db;
    const project = await db.project.create({ data: { userId: user.id, title: 'T', language: 'en', templateName: 'classic', userThemeId: theme.id } });
    const r = await remove(user.key, theme.id);
    expect(r.body.data.deleteUserTheme).toEqual({ id: theme.id, name: 'Short-lived' });
    expect((await themes(user.key)).map((t) => t.id)).not.toContain(theme.id);
    expect(await db.project.findUniqueOrThrow({ where: { id: project.id } })).toMatchObject({ userThemeId: null, templateName: 'classic' });
    expectThemeNotFound(await remove(user.key, theme.id));
  });

  it("findUserTheme finds only the caller's own themes", async () => {
    const db = app.runtime.app.db;
    const other = await createUser(app);
    const theme = await created(user.key, { name: 'Lookup' });
    expect(await findUserTheme(db, user.id, theme.id)).toMatchObject({ id: theme.id, userId: user.id });
    expect(await findUserTheme(db, other.id, theme.id)).toBeNull();
    expect(await findUserTheme(db, user.id, 'not-a-uuid')).toBeNull();
    expect(await findUserTheme(db, user.id, randomUUID())).toBeNull();
  });

  it('needs an API key', async () => {
    const r = await gql(app, undefined, '{ userThemes { id } }');
    expect(r.status).toBe(401);
    expect(r.body.errors?.[0].extensions?.code).toBe('UNAUTHORIZED');
  });
});

describe('/v1/themes', () => {
  it('creates (201), reads, lists, updates and deletes a theme', async () => {
    const owner = await createUser(app);
    const made = await request(app, 'POST', '/v1/themes', { key: owner.key, json: FULL });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ name: FULL.name, basedOn: 'neon', changes: CHANGES });
    expect(made.body.style.font).toEqual({ ...findCaptionTemplate('neon')!.style.font, ...CHANGES.font });
    const id = made.body.id;
    expect((await request(app, 'GET', `/v1/themes/${id}`, { key: owner.key })).body).toEqual(made.body);
    expect((await request(app, 'GET', '/v1/themes', { key: owner.key })).body).toEqual({ themes: [made.body] });
    const put = await request(app, 'PUT', `/v1/themes/${id}`, { key: owner.key, json: { name: 'Renamed', style: { emoji: 'off' } } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id, name: 'Renamed', changes: { ...CHANGES, emoji: 'off' } });
    const del = await request(app, 'DELETE', `/v1/themes/${id}`, { key: owner.key });
    expect(del).toMatchObject({ status: 200, body: { id, deleted: true } });
    expect((await request(app, 'DELETE', `/v1/themes/${id}`, { key: owner.key })).status).toBe(404);
    expect((await request(app, 'GET', `/v1/themes/${id}`, { key: owner.key })).body).toMatchObject({ error: 'NOT_FOUND' });
  });

  it('refuses a bad body with VALIDATION_ERROR naming each field, wrong types included, and makes nothing', async () => {
    const owner = await createUser(app);
    const r = await request(app, 'POST', '/v1/themes', { key: owner.key, json: { name: 7, style: { font: { size: 'big', weight: 950 }, layout: 'wide' } } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('VALIDATION_ERROR');
    expect(r.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['name', 'style.font.size', 'style.font.weight', 'style.layout']);
    expect((await request(app, 'GET', '/v1/themes', { key: owner.key })).body).toEqual({ themes: [] });
    // an update of a theme that is not yours is NOT_FOUND before its body is judged
    const put = await request(app, 'PUT', `/v1/themes/${randomUUID()}`, { key: owner.key, json: { style: { fill: 'red' } } });
    expect(put).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } });
  });
});
