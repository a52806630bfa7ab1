import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
// one import per domain file, for its side effects (types, queries, mutations)
import './auth.js';
import './catalog.js';
import './jobs.js';

export const schema = lexicographicSortSchema(builder.toSchema());
