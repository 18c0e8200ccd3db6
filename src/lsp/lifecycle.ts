/**
 * The server's side of the LSP lifecycle before and at `initialize` (#33 s49 sweep L2).
 *
 * LSP 3.17: "the initialize request may only be sent once", and before it "for a request the
 * response should be an error with code: -32002 … Notifications should be dropped, except for the
 * exit notification". vscode-languageserver's connection enforces neither: a second `initialize`
 * was handled as the first (a client naming `file:///` in it re-rooted the server, which walked `/`
 * and never linted the open page), and a request before `initialize` was answered `null`.
 */
import { ErrorCodes, type Message, type ResponseMessage } from 'vscode-languageserver/node';

/** What {@link InitializeGate.admit} does with a message: handle it, or drop it and send `answer` (if any). */
export type Admission = { handle: true } | { handle: false; answer?: ResponseMessage };

/**
 * Decides, message by message in the order the connection handles them, which the server handles:
 * before `initialize`, only `exit` (a request gets the error -32002, ServerNotInitialized; another
 * notification is dropped); the first `initialize` and everything after it, but for any later
 * `initialize` request, answered with the error -32600 (InvalidRequest) and not handled.
 */
export class InitializeGate {
  /** Whether an `initialize` request was handled. */
  private initialized = false;

  /** What to do with `message` (a request, notification or response from the client). */
  admit(message: Message): Admission {
    const { method, id } = message as { method?: unknown; id?: unknown };
    // A response (to a request of the server's) has no method: the server sends none before initialize.
    if (typeof method !== 'string') return { handle: true };
    const request = id !== undefined && id !== null;
    const answerId = typeof id === 'number' || typeof id === 'string' ? id : null;
    if (method === 'initialize') {
      // Sent as a notification it asks for nothing, and initializes nothing.
      if (!request) return { handle: false };
      if (!this.initialized) {
        this.initialized = true;
        return { handle: true };
      }
      return { handle: false, answer: { jsonrpc: '2.0', id: answerId, error: { code: ErrorCodes.InvalidRequest, message: 'initialize was already received: the initialize request may only be sent once; this one is ignored' } } };
    }
    if (this.initialized || method === 'exit') return { handle: true };
    return { handle: false, answer: request ? { jsonrpc: '2.0', id: answerId, error: { code: ErrorCodes.ServerNotInitialized, message: `the server is not initialized: ${method.slice(0, 100)} came before the initialize request` } } : undefined };
  }
}
