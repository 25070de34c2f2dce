/**
 * Headers of every UI page (docs/security.md "Pages"): a Content-Security-Policy whose scripts
 * must carry the request's nonce (Next.js stamps it on its own scripts when it finds the policy
 * on the request), no framing by other sites, no MIME sniffing. Inline style attributes stay
 * allowed: React renders them (charts), and styles cannot run code.
 */
export function pageSecurityHeaders(
  nonce: string,
  options: { development: boolean; https: boolean },
): Record<string, string> {
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
  return {
    "content-security-policy": policy,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    ...(options.https ? { "strict-transport-security": "max-age=31536000" } : {}),
  };
}

/** 128 random bits, base64: a fresh nonce for each page view. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
