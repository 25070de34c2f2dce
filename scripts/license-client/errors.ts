/**
 * Exit codes of the reference client (scripts/license-client.ts). Distinct per cause so a shipped
 * application (or a test) can tell "the license is gone" from "the server is down".
 */
export const EXIT = {
  ok: 0,
  internal: 1,
  usage: 2,
  /** 409 license.no_active_session: the session was released or its seat reclaimed. */
  noActiveSession: 3,
  /** 401: the server refused the license token (license.session_token_rejected). */
  unauthorized: 4,
  /** Offline verification failed: signature, audience, issuer, lifetime, device or nonce. */
  verificationFailed: 5,
  /** Any other problem+json refusal from the server (no seat, unknown code, ...). */
  refused: 6,
  /** The server could not be reached. */
  unreachable: 7,
  /** No state file: activate first. */
  notActivated: 8,
  /** A consumption decision that refused the amount (its reasonCode is printed). */
  denied: 9,
} as const;

export class ClientError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ClientError";
  }
}
