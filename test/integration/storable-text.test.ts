// Text that PostgreSQL cannot store (a NUL character; an unpaired surrogate, which a JSON column refuses)
// is the caller's error, named by its field, through every door and every text input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, gql, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { jsonOf, multipartBody, rawRequest } from '../support/raw.js';

let app: TestApp;
let user: TestUser;
let presetId: string;
let projectId: string;
let themeId: string;

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';

beforeAll(async () => {
  app = await startTestApp({ role: 'server' });
  user = await createUser(app, { aiCredits: null });
  const db = app.runtime.app.db;
  presetId = (await db.preset.create({ data: { userId: user.id, name: 'P' } })).id;
  themeId = (await db.userTheme.create({ data: { userId: user.id, name: 'T' } })).id;
  projectId = (await db.project.create({ data: { userId: user.id, title: 'T', language: 'en', status: 'completed', templateName: 'headline' } })).id;
});
afterAll(async () => {
  await app?.stop();
});

const fieldsOf = (details: Array<{ field: string }> | undefined) => (details ?? []).map((d) => d.field);

describe('REST bodies', () => {
  const cases: Array<[string, string, string, (bad: string) => unknown, string]> = [
    ['PUT', 'preset name', '/v1/presets/:preset', (bad) => ({ name: bad }), 'name'],
    ['PUT', 'preset description', '/v1/presets/:preset', (bad) => ({ description: bad }), 'description'],
    ['POST', 'project title', '/v1/projects', (bad) => ({ title: bad, language: 'en', videoUrl: 'https://example.com/v.mp4' }), 'title'],
    [
      'POST',
      'a dictionary word',
      '/v1/projects',
      (bad) => ({ title: 'T', language: 'en', videoUrl: 'https://example.com/v.mp4', dictionary: ['ok', bad] }),
      'dictionary[1]',
    ],
    [
      'POST',
      'a hook title',
      '/v1/projects',
      (bad) => ({ title: 'T', language: 'en', videoUrl: 'https://example.com/v.mp4', hookTitle: { text: bad } }),
      'hookTitle.text',
    ],
    ['POST', 'a media URL', '/v1/user-media', (bad) => ({ url: `https://example.com/${bad}.mp4` }), 'url'],
    ['PUT', 'a project edit', '/v1/projects/:project', (bad) => ({ hookTitle: { text: bad } }), 'hookTitle.text'],
  ];
  for (const [method, what, route, body, field] of cases) {
    for (const [kind, bad] of [
      ['NUL', NUL],
      ['unpaired surrogate', LONE],
    ]) {
      it(`${what} with a ${kind}: 400 VALIDATION_ERROR on ${field}`, async () => {
        const url = route.replace(':preset', presetId).replace(':project', projectId);
        const r = await request(app, method, url, { key: user.key, json: body(bad) });
        expect(r.status).toBe(400);
        expect(r.body.error).toBe('VALIDATION_ERROR');
        expect(fieldsOf(r.body.details)).toContain(field);
      });
    }
  }

  it('a query string with a NUL: 400 VALIDATION_ERROR on the parameter', async () => {
    const r = await request(app, 'GET', '/v1/user-media?cursor=%00', { key: user.key });
    expect(r.status).toBe(400);
    expect(fieldsOf(r.body.details)).toEqual(['cursor']);
  });

  it('an upload with a NUL in its title or dictionary: 400 naming both, before the file is read', async () => {
    const B = 'nulBOUNDARY';
    const body = multipartBody(
      B,
      [
        { name: 'title', value: NUL },
        { name: 'language', value: 'en' },
        { name: 'dictionary', value: JSON.stringify(['x', NUL]) },
      ],
      { close: false },
    );
    const head = `POST /v1/projects/upload HTTP/1.1\r\nHost: t\r\nx-api-key: ${user.key}\r\nContent-Type: multipart/form-data; boundary=${B}\r\nContent-Length: ${body.length + 10_000_000}\r\n\r\n`;
    const start = Buffer.concat([body, Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.mp4"\r\n\r\n`)]);
    const a = await rawRequest(app.url, head, start, { keepSending: true });
    expect(a.status).toBe(400);
    expect(fieldsOf(jsonOf(a).details).sort()).toEqual(['dictionary[1]', 'title']);
  });
});

describe('GraphQL arguments', () => {
  const cases: Array<[string, string, Record<string, unknown> | undefined, string]> = [
    ['createPresetFromProject(name:)', `mutation($p: ID!) { createPresetFromProject(projectId: $p, name: ${JSON.stringify(NUL)}) { id } }`, undefined, 'name'],
    [
      'createPresetFromProject(description:) as a variable',
      'mutation($p: ID!, $d: String) { createPresetFromProject(projectId: $p, name: "ok", description: $d) { id } }',
      { d: NUL },
      'description',
    ],
    ['createUserTheme(input: {name:})', `mutation { createUserTheme(input: { name: ${JSON.stringify(NUL)} }) { id } }`, undefined, 'name'],
    ['createUserTheme(input:) as a variable', 'mutation($i: UserThemeInput!) { createUserTheme(input: $i) { id } }', { i: { name: LONE } }, 'name'],
    [
      'updateUserTheme(input: {name:}) as a variable',
      'mutation($t: ID!, $n: String) { updateUserTheme(id: $t, input: { name: $n }) { id } }',
      { n: LONE },
      'name',
    ],
    ['createUserMedia(url:)', 'mutation($u: String!) { createUserMedia(url: $u) { userMediaId } }', { u: `https://example.com/${NUL}.mp4` }, 'url'],
    ['webhookDeliveries(subjectId:)', `{ webhookDeliveries(subjectId: ${JSON.stringify(NUL)}) { edges { node { id } } } }`, undefined, 'subjectId'],
    [
      'createUserTheme(input:) with a colour',
      'mutation($i: UserThemeInput!) { createUserTheme(input: $i) { id } }',
      { i: { name: 'ok', style: { fill: `#${NUL}` } } },
      'style.fill',
    ],
    [
      'updateProject(input:) with a word',
      'mutation($p: ID!, $i: UpdateProjectInput!) { updateProject(id: $p, input: $i) { id } }',
      { i: { words: [{ type: 'word', text: NUL, startTime: 0, endTime: 1 }] } },
      'words[0].text',
    ],
  ];
  for (const [what, query, variables, field] of cases) {
    it(`${what}: VALIDATION_ERROR on ${field}`, async () => {
      const r = await gql(app, user.key, query, { p: projectId, t: themeId, ...variables });
      expect(r.body.errors?.[0]?.extensions?.code, JSON.stringify(r.body)).toBe('VALIDATION_ERROR');
      expect(fieldsOf(r.body.errors![0].extensions!.details)).toContain(field);
    });
  }
});
