import { graphql } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.js';

const TYPE = 'kind name ofType { kind name ofType { kind name ofType { kind name } } }';
const INTROSPECTION = `{
  __schema {
    mutationType { fields { name args { name type { ${TYPE} } } } }
    types { kind name description enumValues { name } inputFields { name description type { ${TYPE} } } }
  }
}`;

type TypeRef = { kind: string; name: string | null; ofType: TypeRef | null };
interface InputField {
  name: string;
  description: string | null;
  type: TypeRef;
}

/** `String!`, `[WordInput!]` as the SDL writes a type. */
const sdl = (t: TypeRef): string => (t.kind === 'NON_NULL' ? `${sdl(t.ofType!)}!` : t.kind === 'LIST' ? `[${sdl(t.ofType!)}]` : t.name!);

async function introspect() {
  const r = await graphql({ schema, source: INTROSPECTION });
  expect(r.errors).toBeUndefined();
  const data = r.data as {
    __schema: {
      mutationType: { fields: Array<{ name: string; args: Array<{ name: string; type: TypeRef }> }> };
      types: Array<{ kind: string; name: string; description: string | null; enumValues: Array<{ name: string }> | null; inputFields: InputField[] | null }>;
    };
  };
  const types = new Map(data.__schema.types.map((t) => [t.name, t]));
  const inputOf = (mutation: string) => {
    const field = data.__schema.mutationType.fields.find((f) => f.name === mutation)!;
    const arg = field.args.find((a) => a.name === 'input')!;
    const name = sdl(arg.type).replace(/!$/, '');
    return { argType: sdl(arg.type), type: types.get(name)!, fields: Object.fromEntries(types.get(name)!.inputFields!.map((f) => [f.name, f])) };
  };
  return { types, inputOf };
}

describe('typed inputs of the mutations, by introspection', () => {
  it('createProject and uploadProject take the fields of the REST body, required ones non-null, each described', async () => {
    const { inputOf } = await introspect();
    const create = inputOf('createProject');
    expect(create.argType).toBe('CreateProjectInput!');
    const types = Object.fromEntries(Object.entries(create.fields).map(([k, f]) => [k, sdl(f.type)]));
    expect(types).toEqual({
      title: 'String!',
      language: 'String!',
      videoUrl: 'String!',
      webhookUrl: 'String',
      aiEditTemplate: 'AiEditTemplate',
      presetId: 'ID',
      templateName: 'String',
      userThemeId: 'ID',
      style: 'CaptionStyleInput',
      captionPositionY: 'Float',
      captionPositionX: 'Float',
      reframe: 'String',
      speakerLayout: 'String',
      magicZooms: 'Boolean',
      magicBrolls: 'Boolean',
      magicBrollsPercentage: 'Float',
      removeSilencePace: 'String',
      removeBadTakes: 'Boolean',
      cleanAudio: 'Boolean',
      disableCaptions: 'Boolean',
      autoRender: 'Boolean',
      dictionary: '[String!]',
      hookTitle: 'JSON',
      music: 'ProjectMusicInput',
      items: 'JSON',
    });
    for (const f of Object.values(create.fields)) expect(f.description, f.name).toBeTruthy();
    // values that are not GraphQL names are Strings whose description lists them
    expect(create.fields.removeSilencePace.description).toContain('extra-fast');
    expect(create.fields.items.description).toContain('split-50-50');
    expect(create.fields.items.description).toContain('ai-broll');

    const upload = inputOf('uploadProject');
    expect(upload.argType).toBe('UploadProjectInput!');
    expect(Object.keys(upload.fields).sort()).toEqual(
      Object.keys(create.fields)
        .filter((k) => k !== 'videoUrl' && k !== 'autoRender')
        .sort(),
    );
  });

  it('updateProject takes words as typed inputs, music as an input object, every field optional', async () => {
    const { inputOf, types } = await introspect();
    const update = inputOf('updateProject');
    expect(update.argType).toBe('UpdateProjectInput!');
    expect(Object.fromEntries(Object.entries(update.fields).map(([k, f]) => [k, sdl(f.type)]))).toEqual({
      words: '[WordInput!]',
      templateName: 'String',
      userThemeId: 'ID',
      style: 'CaptionStyleInput',
      removeSilencePace: 'String',
      removeBadTakes: 'Boolean',
      magicZooms: 'Boolean',
      cleanAudio: 'Boolean',
      disableCaptions: 'Boolean',
      captionPositionY: 'Float',
      captionPositionX: 'Float',
      reframe: 'String',
      speakerLayout: 'String',
      hookTitle: 'JSON',
      music: 'ProjectMusicInput',
      items: 'JSON',
    });
    const word = Object.fromEntries(types.get('WordInput')!.inputFields!.map((f) => [f.name, sdl(f.type)]));
    expect(word).toEqual({
      id: 'ID',
      text: 'String',
      type: 'WordKind!',
      startTime: 'Float!',
      endTime: 'Float!',
      color: 'String',
      emphasis: 'Boolean',
      emoji: 'String',
      hidden: 'Boolean',
    });
    // the caption style: nested inputs, one per group of the style, every member optional
    const style = Object.fromEntries(types.get('CaptionStyleInput')!.inputFields!.map((f) => [f.name, sdl(f.type)]));
    expect(style).toEqual({
      font: 'CaptionFontInput',
      fill: 'String',
      alternateFill: 'String',
      outline: 'CaptionOutlineInput',
      shadow: 'CaptionShadowInput',
      box: 'CaptionBoxInput',
      layout: 'CaptionLayoutInput',
      activeWord: 'CaptionActiveWordInput',
      entrance: 'CaptionEntranceInput',
      emphasis: 'CaptionEmphasisInput',
      emoji: 'String',
    });
    const font = Object.fromEntries(types.get('CaptionFontInput')!.inputFields!.map((f) => [f.name, sdl(f.type)]));
    expect(font).toEqual({ family: 'String', weight: 'Int', size: 'Int', case: 'String' });
    expect(
      types
        .get('WordKind')!
        .enumValues!.map((v) => v.name)
        .sort(),
    ).toEqual(['punctuation', 'silence', 'word']);
    const music = Object.fromEntries(types.get('ProjectMusicInput')!.inputFields!.map((f) => [f.name, sdl(f.type)]));
    expect(music).toEqual({ userMediaId: 'ID!', volume: 'Float!', startFromTime: 'Float', fade: 'Boolean' });
    expect(types.get('AiEditTemplate')!.enumValues!.map((v) => v.name)).toEqual(['ai_template_a', 'ai_template_b', 'ai_template_c']);
  });

  it('exportProject and updatePreset take typed, described inputs', async () => {
    const { inputOf } = await introspect();
    const exp = inputOf('exportProject');
    expect(exp.argType).toBe('ExportProjectInput');
    expect(Object.fromEntries(Object.entries(exp.fields).map(([k, f]) => [k, sdl(f.type)]))).toEqual({
      fps: 'Float',
      width: 'Int',
      height: 'Int',
      webhookUrl: 'String',
    });
    for (const f of Object.values(exp.fields)) expect(f.description, f.name).toBeTruthy();

    const preset = inputOf('updatePreset');
    expect(preset.argType).toBe('UpdatePresetInput!');
    expect(Object.fromEntries(Object.entries(preset.fields).map(([k, f]) => [k, sdl(f.type)]))).toEqual({
      name: 'String',
      description: 'String',
      magicBrollsPercentage: 'Int',
      musicVolume: 'Int',
      transitionSoundVolume: 'Int',
      captions: 'Boolean',
      hookTitle: 'Boolean',
      logo: 'Boolean',
      colorFilter: 'Boolean',
      music: 'Boolean',
      magicZooms: 'Boolean',
      magicBrolls: 'Boolean',
      magicBrollsTransitions: 'Boolean',
      cleanAudio: 'Boolean',
      eyeContactCorrection: 'Boolean',
    });
    expect(preset.fields.musicVolume.description).toMatch(/1-100/);
  });
});
