/**
 * A project's look after creation (extensions of SPEC.md): templateName,
 * userThemeId and a style of its own on creation and on PUT, through both
 * doors, with every rule; per-word looks kept across transcript edits.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCaptionTemplate } from '../../src/catalog/caption-templates.js';
import { createUser, gql, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { transcribedRow } from '../support/rows.js';

let app: TestApp;
let user: TestUser;
let other: TestUser;
let themeId: string;
let foreignThemeId: string;

const db = () => app.runtime.app.db;
const put = (key: string, id: string, json: unknown) => request(app, 'PUT', `/v1/projects/${id}`, { key, json });
const get = async (id: string) => (await request(app, 'GET', `/v1/projects/${id}`, { key: user.key })).body;
const UPDATE = 'mutation($id: ID!, $input: UpdateProjectInput!) { updateProject(id: $id, input: $input) { message id status } }';

const WORDS = [
  { id: 'w_a', text: 'Hello', type: 'word', startTime: 0.1, endTime: 0.5 },
  { id: 'w_b', text: '', type: 'silence', startTime: 0.5, endTime: 1.2 },
  { id: 'w_c', text: 'world', type: 'word', startTime: 1.2, endTime: 1.6 },
  { id: 'w_d', text: '.', type: 'punctuation', startTime: 1.6, endTime: 1.6 },
];

/** a completed project row, as the pipeline leaves one */
const row = async (userId = user.id, data: Record<string, unknown> = {}) => (await transcribedRow(db(), userId, WORDS, data)).id;

function expectFields(r: { status: number; body: any }, fields: string[]) {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.error).toBe('VALIDATION_ERROR');
  expect(r.body.details.map((d: { field: string }) => d.field).sort()).toEqual([...fields].sort());
}

beforeAll(async () => {
  app = await startTestApp({ role: 'server' });
  [user, other] = await Promise.all([createUser(app), createUser(app)]);
  const theme = (key: string) => request(app, 'POST', '/v1/themes', { key, json: { name: 'Mine', basedOn: 'karaoke', style: { fill: '#ABCDEF' } } });
  [themeId, foreignThemeId] = (await Promise.all([theme(user.key), theme(other.key)])).map((r) => r.body.id);
});
afterAll(async () => {
  await app?.stop();
});

describe('the look after creation: PUT templateName, userThemeId, style', () => {
  it('changes the template, then a theme, then lays a style over it; the read shows the whole style', async () => {
    const id = await row();
    expect(await put(user.key, id, { templateName: 'neon' })).toMatchObject({ status: 200, body: { id } });
    expect(await get(id)).toMatchObject({ templateName: 'neon' });
    expect((await put(user.key, id, { userThemeId: themeId })).status).toBe(200);
    expect(await get(id)).toMatchObject({ userThemeId: themeId });
    expect((await put(user.key, id, { style: { font: { size: 120 }, emoji: 'keywords' } })).status).toBe(200);
    expect((await put(user.key, id, { style: { font: { case: 'upper' } } })).status).toBe(200);
    const read = await get(id);
    // the project's own changes, laid over one another
    expect(read.style).toEqual({ font: { size: 120, case: 'upper' }, emoji: 'keywords' });
    const g = await gql(app, user.key, 'query($id: ID!) { project(id: $id) { captionStyle { font { family size case } fill emoji entrance { effect } } } }', {
      id,
    });
    const karaoke = findCaptionTemplate('karaoke')!.style;
    // the theme (karaoke with its fill) under the project's changes
    expect(g.body.data.project.captionStyle).toEqual({
      font: { family: karaoke.font.family, size: 120, case: 'upper' },
      fill: '#ABCDEF',
      emoji: 'keywords',
      entrance: { effect: 'karaoke' },
    });
    // a template again: the theme goes, the project's changes stay until cleared with null
    expect((await put(user.key, id, { templateName: 'subtitle' })).status).toBe(200);
    expect(await get(id)).toMatchObject({ templateName: 'subtitle', style: { emoji: 'keywords' } });
    expect((await get(id)).userThemeId).toBeUndefined();
    expect((await put(user.key, id, { style: null })).status).toBe(200);
    expect((await get(id)).style).toBeUndefined();
  });

  it('through GraphQL too, with the same rules', async () => {
    const id = await row();
    const ok = await gql(app, user.key, UPDATE, { id, input: { templateName: 'pop', style: { layout: { wordsPerLine: 2 } } } });
    expect(ok.body.errors).toBeUndefined();
    expect(await get(id)).toMatchObject({ templateName: 'pop', style: { layout: { wordsPerLine: 2 } } });
    const bad = await gql(app, user.key, UPDATE, { id, input: { templateName: 'pop', userThemeId: themeId, style: { fill: 'red' } } });
    const ext = bad.body.errors?.[0]?.extensions;
    expect(ext?.code).toBe('VALIDATION_ERROR');
    expect(ext!.details.map((d: { field: string }) => d.field).sort()).toEqual(['style.fill', 'templateName', 'userThemeId']);
  });

  it('creation takes a style of its own too, stored and shown', async () => {
    const r = await request(app, 'POST', '/v1/projects', {
      key: user.key,
      json: { title: 'Styled', language: 'en', videoUrl: 'http://127.0.0.1:1/x.mp4', style: { entrance: { effect: 'fade', duration: 200 } } },
    });
    // the source is unreachable (checked at creation): nothing is stored, and the style was read first without complaint
    expect(r.status).toBe(400);
    expect(r.body.details.map((d: { field: string }) => d.field)).toEqual(['videoUrl']);
    const bad = await request(app, 'POST', '/v1/projects', {
      key: user.key,
      json: { title: 'Styled', language: 'en', videoUrl: 'http://127.0.0.1:1/x.mp4', style: { entrance: { effect: 'spin' } }, presetId: randomUUID() },
    });
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['presetId', 'style', 'style.entrance.effect']);
  });

  it.each([
    ['an unknown template', () => ({ templateName: 'fancy' }), ['templateName']],
    ['a template and a theme', () => ({ templateName: 'neon', userThemeId: themeId }), ['templateName', 'userThemeId']],
    ["another user's theme", () => ({ userThemeId: foreignThemeId }), ['userThemeId']],
    ['a missing theme', () => ({ userThemeId: randomUUID() }), ['userThemeId']],
    ['a malformed theme id', () => ({ userThemeId: 'nope' }), ['userThemeId']],
    [
      'a style of wrong values',
      () => ({ style: { font: { family: 'Papyrus', size: 9 }, layout: { linesPerPage: 4 } } }),
      ['style.font.family', 'style.font.size', 'style.layout.linesPerPage'],
    ],
    ['a style that is not an object', () => ({ style: 'bold' }), ['style']],
  ])('refuses %s: 400 VALIDATION_ERROR naming each field, nothing changes', async (_what, body, fields) => {
    const id = await row();
    const before = await db().project.findUniqueOrThrow({ where: { id } });
    expectFields(await put(user.key, id, body()), fields);
    expect(await db().project.findUniqueOrThrow({ where: { id } })).toEqual(before);
  });

  it("not over the captions of the project's preset: the preset's captions toggle on refuses them, off allows them", async () => {
    const saved = { templateName: 'neon' };
    const on = await db().preset.create({ data: { userId: user.id, name: 'On', captions: true, savedCaptions: saved } });
    const off = await db().preset.create({ data: { userId: user.id, name: 'Off', captions: false, savedCaptions: saved } });
    const withOn = await row(user.id, { presetId: on.id });
    expectFields(await put(user.key, withOn, { templateName: 'pop', style: { fill: '#FFFFFF' } }), ['templateName', 'style']);
    const withOff = await row(user.id, { presetId: off.id });
    expect((await put(user.key, withOff, { templateName: 'pop' })).status).toBe(200);
  });
});

describe('per-word looks', () => {
  it('colour, emphasis, emoji and hidden are stored on words, kept when an edit leaves them out, cleared with null', async () => {
    const id = await row();
    const looked = WORDS.map((w) => (w.id === 'w_a' ? { ...w, color: '#FF0000', emphasis: true, emoji: '🔥' } : w.id === 'w_c' ? { ...w, hidden: true } : w));
    expect((await put(user.key, id, { words: looked })).status).toBe(200);
    let words = (await get(id)).words;
    expect(words[0]).toEqual({ id: 'w_a', text: 'Hello', type: 'word', startTime: 0.1, endTime: 0.5, color: '#FF0000', emphasis: true, emoji: '🔥' });
    expect(words[2]).toMatchObject({ id: 'w_c', hidden: true });
    // the silence has no look fields at all
    expect(Object.keys(words[1]).sort()).toEqual(['endTime', 'id', 'startTime', 'text', 'type']);
    // a text correction without the look fields keeps them
    expect((await put(user.key, id, { words: WORDS.map((w) => (w.id === 'w_a' ? { ...w, text: 'Hi' } : w)) })).status).toBe(200);
    words = (await get(id)).words;
    expect(words[0]).toMatchObject({ text: 'Hi', color: '#FF0000', emphasis: true, emoji: '🔥' });
    expect(words[2]).toMatchObject({ hidden: true });
    // null clears one; the others stay
    expect((await put(user.key, id, { words: WORDS.map((w) => (w.id === 'w_a' ? { ...w, emoji: null, emphasis: false } : w)) })).status).toBe(200);
    words = (await get(id)).words;
    expect(words[0]).toMatchObject({ color: '#FF0000', emphasis: false });
    expect(words[0].emoji).toBeUndefined();
    // GraphQL reads them as fields
    const g = await gql(app, user.key, 'query($id: ID!) { project(id: $id) { words { id color emphasis emoji hidden } } }', { id });
    expect(g.body.data.project.words[0]).toEqual({ id: 'w_a', color: '#FF0000', emphasis: false, emoji: null, hidden: null });
  });

  it('refuses a colour that is not one and an emoji that is not one emoji, naming each word', async () => {
    const id = await row();
    const bad = WORDS.map((w, i) => (i === 0 ? { ...w, color: 'red', emoji: 'fire' } : i === 2 ? { ...w, emoji: '🔥🔥', hidden: 'yes' } : w));
    expectFields(await put(user.key, id, { words: bad }), ['words[0].color', 'words[0].emoji', 'words[2].emoji', 'words[2].hidden']);
  });
});
