// GraphQL's own input coercion failures become one VALIDATION_ERROR naming each field.
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { validationError, type FieldError } from '../../errors.js';
import type { Context } from '../context.js';

// graphql-js: Variable "$input" got invalid value 5 at "input.title"; String cannot represent a non string value: 5
// graphql-js: Variable "$input" got invalid value {...}; Field "title" of required type "String!" was not provided.
const VARIABLE_ERROR = /^Variable "\$(\w+)" got invalid value (.*?)(?: at "([^"]+)")?; (.*)$/s;
const MISSING_FIELD = /^Field "(\w+)" of required type "[^"]+" was not provided\.$/;
const UNKNOWN_FIELD = /^Field "(\w+)" is not defined by type "[^"]+"\./;
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
    const missing = MISSING_FIELD.exec(reason) ?? UNKNOWN_FIELD.exec(reason);
    if (missing) path = path ? `${path}.${missing[1]}` : missing[1];
    // list indexes as the REST body names them: items.1.endTime -> items[1].endTime
    path = path.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
    const message = MISSING_FIELD.test(reason) ? 'is required' : UNKNOWN_FIELD.test(reason) ? 'is not a known field' : reason.replace(/\.$/, '');
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

export function useVariableErrors(): Plugin<Context> {
  return {
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (!('errors' in result) || !result.errors?.length || 'data' in result && result.data) return;
          const fields = fieldErrorsFromCoercion(result.errors);
          if (fields) setResult({ errors: [validationError(fields)] });
        },
      };
    },
  };
}
