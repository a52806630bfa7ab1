/**
 * The pieces every OpenAI-compatible call shares: where an endpoint is under a
 * configured base URL (with or without its `/v1`), and one chat completion.
 */

export interface OpenAiCompatibleOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
}

/** `path` (e.g. `chat/completions`) under the API's `/v1`, whether or not `baseUrl` ends with it. */
export const apiEndpoint = (baseUrl: string, path: string) => `${baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/${path}`;

export interface ChatRequest {
  messages: Array<{ role: 'system' | 'user'; content: string }>;
  temperature: number;
  /** ask for a JSON object answer (`response_format`) */
  json?: boolean;
  signal?: AbortSignal;
  /** default 30 s, or the options' timeoutMs */
  timeoutMs?: number;
}

/** One chat completion: the first choice's message content as given (not checked), or an Error for a non-2xx answer. */
export async function chatCompletion(opts: OpenAiCompatibleOptions, req: ChatRequest): Promise<unknown> {
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? req.timeoutMs ?? 30_000);
  const res = await fetch(apiEndpoint(opts.baseUrl, 'chat/completions'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.apiKey}` },
    body: JSON.stringify({
      model: opts.model,
      temperature: req.temperature,
      ...(req.json ? { response_format: { type: 'json_object' } } : {}),
      messages: req.messages,
    }),
    signal: req.signal ? AbortSignal.any([req.signal, timeout]) : timeout,
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const body = (await res.json()) as { choices?: Array<{ message?: { content?: unknown } }> };
  return body.choices?.[0]?.message?.content;
}
