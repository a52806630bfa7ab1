// GraphQL's own input coercion failures become one VALIDATION_ERROR naming each field;
// a field an input type refuses by name is refused in that type's words.
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { validationError, type FieldError } from '../../errors.js';
import { UNKNOWN_FIELD } from '../../validation.js';
import type { Context } from '../context.js';
import { refusalOf } from '../inputs.js';

// graphql-js: Variable "$input" got invalid value 5 at "input.title"; String cannot represent a non string value: 5
// graphql-js: Variable "$input" got invalid value {...}; Field "title" of required type "String!" was not provided.
const VARIABLE_ERROR = /^Variable "\$(\w+)" got invalid value (.*?)(?: at "([^"]+)")?; (.*)$/s;
const MISSING_FIELD = /^Field "(\w+)" of required type "[^"]+" was not provided\.$/;
const NOT_DEFINED = /^Field "(\w+)" is not defined by type "([^"]+)"\./;
// graphql-js: Variable "$id" of required type "ID!" was not provided. / ... of non-null type "ID!" must not be null.
const VARIABLE_MISSING = /^Variable "\$(\w+)" of (?:required|non-null) type "[^"]+" (?:was not provided|must not be null)\.$/;

/** Turns GraphQL input coercion errors into one VALIDATION_ERROR with a field per problem. */
export function fieldErrorsFromCoercion(errors: readonly GraphQLError[]): FieldError[] | null {
  const fields: FieldError[] = [];
  for (const e of errors) {
    const absent = VARIABLE_MISSING.exec(e.message);
    if (absent) {
      fields.push({ field: absent[1], message: 'is required' });
      continue;
    }
    const m = VARIABLE_ERROR.exec(e.message);
    if (!m) return null;
    const [, variable, rawValue, at, reason] = m;
    let path = at ? at.split('.').slice(1).join('.') : '';
    if (!at) path = '';
    const undefinedField = NOT_DEFINED.exec(reason);
    const missing = MISSING_FIELD.exec(reason) ?? undefinedField;
    if (missing) path = path ? `${path}.${missing[1]}` : missing[1];
    // list indexes as the REST body names them: items.1.endTime -> items[1].endTime
    path = path.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
    const message = MISSING_FIELD.test(reason)
      ? 'is required'
      : undefinedField
        ? (refusalOf(undefinedField[2], undefinedField[1]) ?? UNKNOWN_FIELD)
        : reason.replace(/\.$/, '');
    let value: unknown;
    try {
      value = JSON.parse(rawValue);
    } catch {
      value = undefined;
    }
    fields.push({ field: path || variable, message, ...(missing || value === undefined ? {} : { value }) });
  }
  return fields;
}

/**
 * GraphQL's refusal of a field written in the document that its input type
 * does not have, with the type's own words for it when it refuses that field
 * by name (refusalOf); other errors as they are.
 */
function withRefusalWords(e: Error): Error {
  const m = NOT_DEFINED.exec(e.message);
  const words = m && refusalOf(m[2], m[1]);
  return words && e instanceof GraphQLError
    ? new GraphQLError(`Field "${m[1]}" of ${m[2]} ${words}`, { nodes: e.nodes, source: e.source, positions: e.positions, extensions: e.extensions })
    : e;
}

export function useVariableErrors(): Plugin<Context> {
  return {
    onValidate() {
      return ({ result, setResult }) => {
        if (result.some((e) => NOT_DEFINED.test(e.message))) setResult(result.map(withRefusalWords));
      };
    },
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (!('errors' in result) || !result.errors?.length || ('data' in result && result.data)) return;
          const fields = fieldErrorsFromCoercion(result.errors);
          if (fields) setResult({ errors: [validationError(fields)] });
        },
      };
    },
  };
}
