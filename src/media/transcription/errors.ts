/**
 * The engine cannot run in this installation (program, model or key missing). Thrown by
 * createTranscriber, so a misconfigured service fails at start-up instead of on every job.
 */
export class TranscriberUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TranscriberUnavailableError';
  }
}

/** A transcription run failed; `retryable` says whether the same call may succeed later. */
export class TranscriptionError extends Error {
  readonly retryable: boolean;
  /** HTTP status of a remote engine's answer, when there was one */
  readonly status: number | undefined;
  constructor(message: string, opts: { retryable?: boolean; status?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'TranscriptionError';
    this.retryable = opts.retryable ?? false;
    this.status = opts.status;
  }
}

/** What an aborted run rejects with: the signal's reason, as fetch and Node's own APIs do. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
