import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
// one import per domain file, for its side effects (types, queries, mutations)
import './auth.js';
import './account.js';
import './catalog.js';
import './exports.js';
import './jobs.js';
import './library.js';
import './magic-clips.js';
import './presets.js';
import './publishing.js';
import './project-edits.js';
import './projects.js';
import './publishing-stats.js';
import './themes.js';
import './webhooks.js';

export const schema = lexicographicSortSchema(builder.toSchema());
