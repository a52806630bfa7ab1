import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HIGHLIGHT_STYLES } from '../../src/catalog/caption-templates.js';
import { findUserTheme, THEME_FONTS } from '../../src/themes/service.js';
import { createUser, gql, startTestApp, type Answer, type TestApp, type TestUser } from '../support/app.js';

let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  app = await startTestApp({ role: 'server' });
  user = await createUser(app);
});
afterAll(async () => {
  await app?.stop();
});

const FIELDS = 'id name font fontSize primaryColor highlightColor outlineColor backgroundColor highlightStyle wordsPerLine uppercase createdAt updatedAt';
const FULL = {
  name: 'Bold yellow',
  font: 'Roboto',
  fontSize: 80,
  primaryColor: '#FFFFFF',
  highlightColor: '#ffd400',
  outlineColor: '#000000CC',
  backgroundColor: '#00000080',
  highlightStyle: 'box',
  wordsPerLine: 2,
  uppercase: true,
};

const create = (key: string, input: Record<string, unknown>) =>
  gql(app, key, `mutation($input: UserThemeInput!) { createUserTheme(input: $input) { ${FIELDS} } }`, { input });
const update = (key: string, id: string, input: Record<string, unknown>) =>
  gql(app, key, `mutation($id: ID!, $input: UserThemeInput!) { updateUserTheme(id: $id, input: $input) { ${FIELDS} } }`, { id, input });
const remove = (key: string, id: string) => gql(app, key, 'mutation($id: ID!) { deleteUserTheme(id: $id) { id name } }', { id });
const themes = async (key: string) => (await gql(app, key, `{ userThemes { ${FIELDS} } }`)).body.data.userThemes as Array<Record<string, unknown>>;

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
  it('creates a theme with every style field, or with a name only', async () => {
    const full = await created(user.key, FULL);
    expect(full).toMatchObject(FULL);
    const bare = await created(user.key, { name: 'Just a name' });
    expect(bare).toMatchObject({ name: 'Just a name', font: null, fontSize: null, backgroundColor: null, highlightStyle: null, uppercase: null });
  });

  it('accepts every font of the caption templates and every highlight style', async () => {
    for (const font of THEME_FONTS) await created(user.key, { name: font, font });
    for (const highlightStyle of HIGHLIGHT_STYLES) await created(user.key, { name: highlightStyle, highlightStyle });
    expect(THEME_FONTS).toEqual(expect.arrayContaining(['Open Sans', 'Roboto', 'Lato', 'DejaVu Sans']));
    expect([...HIGHLIGHT_STYLES].sort()).toEqual(['box', 'color', 'none', 'underline']);
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
    ['font', ['Comic Sans', 'roboto']],
    ['fontSize', [15, 201]],
    ['primaryColor', ['red', '#FFF', '#GGGGGG', '#FFFFFFF', 'FFFFFF']],
    ['highlightColor', ['#12345']],
    ['outlineColor', ['#1234567890']],
    ['backgroundColor', ['black']],
    ['highlightStyle', ['glow', 'BOX']],
    ['wordsPerLine', [0, 13]],
  ] as const)('%s: out-of-rule values are VALIDATION_ERROR naming the field', async (field, values) => {
    for (const value of values) {
      const r = await create(user.key, { name: 'T', [field]: value });
      expectFields(r, [field]);
      expect(r.body.errors?.[0].extensions?.details[0]).toMatchObject({ field, value });
    }
  });

  it('a missing name, wrong types and unknown fields name the field too', async () => {
    expectFields(await create(user.key, { font: 'Lato' }), ['name']);
    expectFields(await create(user.key, { name: 'T', fontSize: 'big' }), ['fontSize']);
    expectFields(await create(user.key, { name: 'T', uppercase: 'yes' }), ['uppercase']);
    expectFields(await create(user.key, { name: 'T', colour: '#FFFFFF' }), ['colour']);
    expectFields(await create(user.key, { name: 'T', uppercase: null }), ['uppercase']);
  });

  it('reports every violated field at once and creates nothing', async () => {
    const owner = await createUser(app);
    const r = await create(owner.key, { name: '', font: 'Papyrus', fontSize: 500, primaryColor: 'white', highlightStyle: 'glow', wordsPerLine: 99 });
    expectFields(r, ['name', 'font', 'fontSize', 'primaryColor', 'highlightStyle', 'wordsPerLine']);
    expect(await themes(owner.key)).toEqual([]);
  });

  it('updates some fields; null clears the background box; updatedAt moves', async () => {
    const theme = await created(user.key, FULL);
    const r = await update(user.key, theme.id, { fontSize: 16, wordsPerLine: 12, backgroundColor: null, uppercase: false });
    expect(r.body.data.updateUserTheme).toMatchObject({
      ...FULL,
      fontSize: 16,
      wordsPerLine: 12,
      backgroundColor: null,
      uppercase: false,
      createdAt: theme.createdAt,
    });
    expect(Date.parse(r.body.data.updateUserTheme.updatedAt)).toBeGreaterThanOrEqual(Date.parse(theme.updatedAt));
  });

  it('an update needs a field, and a name cannot be cleared', async () => {
    const theme = await created(user.key, { name: 'Keep' });
    expectFields(await update(user.key, theme.id, {}), ['body']);
    expectFields(await update(user.key, theme.id, { name: null, fontSize: 300 }), ['name', 'fontSize']);
    expect((await themes(user.key)).find((t) => t.id === theme.id)).toMatchObject({ name: 'Keep', fontSize: null });
  });

  it("another user's, a missing or a malformed theme id is NOT_FOUND", async () => {
    const other = await createUser(app);
    const theme = await created(user.key, { name: 'Private' });
    for (const id of [theme.id, randomUUID(), 'nope']) {
      expectThemeNotFound(await update(other.key, id, { name: 'Mine' }));
      expectThemeNotFound(await remove(other.key, id));
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
