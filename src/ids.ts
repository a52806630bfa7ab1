/** A UUID in its text form, any version, either case. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else can never name a row (and must not reach a uuid column). */
export const isUuid = (s: unknown): s is string => typeof s === 'string' && UUID_PATTERN.test(s);
