/**
 * The headers of the pages this service serves to people (GraphiQL at
 * /graphql, the API reference at /docs): no site may frame them (a page in a
 * frame can be overlaid to trick clicks), the browser takes every type as
 * given, and a page may load only what its policy names.
 */
export function pageHeaders(policy: readonly string[]): Record<string, string> {
  return {
    'content-security-policy': ["default-src 'none'", ...policy, "object-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join(
      '; ',
    ),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
  };
}
