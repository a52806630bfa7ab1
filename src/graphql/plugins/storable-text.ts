// Text PostgreSQL cannot store, refused wherever a caller writes it, whichever door it came through.
import { Kind, visit, type DocumentNode, type ExecutionResult, type ValueNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { FieldErrors, validationError } from '../../errors.js';
import { fieldPath, isPlainObject, unstorable } from '../../validation.js';

type Path = PropertyKey[];

/**
 * An argument's field as the REST body names it: the fields of an input object
 * without the argument's name (`input.name` is `name`), anything else by the
 * argument itself (`name`, `subjectId`).
 */
const fieldOf = (path: Path) => fieldPath(path.length > 1 && typeof path[1] === 'string' ? path.slice(1) : path);

/** Every text of a variable's value (objects and lists of any depth; an upload is not text). */
function checkValue(value: unknown, at: Path, errors: FieldErrors) {
  const stack: Array<[unknown, Path]> = [[value, at]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const why = unstorable(v);
      if (why) errors.add(fieldOf(path), why, v);
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, [...path, i]]));
    } else if (isPlainObject(v) && Object.getPrototypeOf(v) === Object.prototype) {
      for (const [k, item] of Object.entries(v)) {
        const why = unstorable(k);
        if (why) errors.add(fieldOf(path), `has a key that ${why}`);
        stack.push([item, [...path, k]]);
      }
    }
  }
}

/** Every text an argument holds: written in the document, or given by the variables it names. */
function checkLiteral(node: ValueNode, at: Path, variables: Record<string, unknown>, errors: FieldErrors) {
  const stack: Array<[ValueNode, Path]> = [[node, at]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (v.kind === Kind.STRING) {
      const why = unstorable(v.value);
      if (why) errors.add(fieldOf(path), why, v.value);
    } else if (v.kind === Kind.VARIABLE) checkValue(variables[v.name.value], path, errors);
    else if (v.kind === Kind.LIST) v.values.forEach((item, i) => stack.push([item, [...path, i]]));
    else if (v.kind === Kind.OBJECT) for (const f of v.fields) stack.push([f.value, [...path, f.name.value]]);
  }
}

/**
 * Refuses an operation any of whose arguments holds text PostgreSQL cannot
 * store (a NUL character, an unpaired surrogate): VALIDATION_ERROR naming each
 * such field, before anything runs. It comes after the REST adapter's reading
 * of its body, which names these among every other violated field.
 */
export function useStorableText(): Plugin {
  const check = (args: { document: unknown; variableValues?: unknown }): ExecutionResult | null => {
    const errors = new FieldErrors();
    const variables = (args.variableValues ?? {}) as Record<string, unknown>;
    visit(args.document as DocumentNode, {
      Argument: (node) => {
        checkLiteral(node.value, [node.name.value], variables, errors);
        return false;
      },
    });
    return errors.size ? { errors: [validationError(errors.list)] } : null;
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const refused = check(args);
      if (refused) setResultAndStopExecution(refused);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const refused = check(args);
      if (refused) setResultAndStopExecution(refused);
    },
  };
}
