// The reference client's commands as functions: each does what a shipped application does at that
// step and answers the JSON the CLI prints. Failures are ClientErrors carrying the exit code.
import { readFile, writeFile } from "node:fs/promises";
import type { JSONWebKeySet } from "jose";
import { ClientError, EXIT } from "./errors.ts";
import { callJson } from "./http.ts";
import {
  buildOfflineRequest,
  verifyOfflineResponse,
  type OfflineRequest,
  type OfflineResponse,
} from "./offline.ts";
import { readState, writeState, type ClientState } from "./state.ts";
import { fetchJwks, jwksHasKid, tenantOfToken, tokenSummary, verifyLicenseToken } from "./token.ts";

const ACTIVATIONS = "/api/v1/provision/activations";

type LicenseActivation = {
  sessionId: string;
  token: string;
  leaseExpiresAt: string;
  graceExpiresAt: string;
  nextCheckInDueAt: string | null;
  license: {
    entitlementId: string;
    name: string;
    state: string;
    isFloatingLicense: boolean;
    numberOfSeats: number;
    expirationDateTime: string | null;
    products: { productCode: string }[];
    features: { featureCode: string }[];
  };
};

type SessionLease = {
  sessionId: string;
  entitlementId: string;
  state: string;
  leaseExpiresAt: string;
  graceExpiresAt: string;
  seatHeldUntil: string;
  nextCheckInDueAt: string | null;
  lastContactAt: string | null;
  token?: string;
};

/** POST /activations/license, then verifies the token offline before trusting it, and stores the session. */
export async function activate(options: {
  url: string;
  code: string;
  fingerprint: string;
  deviceName?: string;
  stateFile: string;
}) {
  const answer = await callJson<LicenseActivation>(options.url, "POST", `${ACTIVATIONS}/license`, {
    body: {
      activationCode: options.code,
      fingerprint: options.fingerprint,
      ...(options.deviceName ? { deviceName: options.deviceName } : {}),
    },
  });
  const tenantId = tenantOfToken(answer.token);
  const jwks = await fetchJwks(options.url, tenantId);
  const claims = await verifyLicenseToken(answer.token, jwks, { fingerprint: options.fingerprint });
  if (claims.sub !== answer.sessionId)
    throw new ClientError(EXIT.verificationFailed, "The token's session is not the one the server answered.");
  await writeState(options.stateFile, {
    url: options.url,
    tenantId,
    sessionId: answer.sessionId,
    token: answer.token,
    jwks,
    jwksFetchedAt: new Date().toISOString(),
  });
  const { license } = answer;
  return {
    activated: true,
    stateFile: options.stateFile,
    ...tokenSummary(claims),
    nextCheckInDueAt: answer.nextCheckInDueAt,
    license: {
      name: license.name,
      state: license.state,
      isFloatingLicense: license.isFloatingLicense,
      numberOfSeats: license.numberOfSeats,
      expirationDateTime: license.expirationDateTime,
      products: license.products.map((p) => p.productCode),
      features: license.features.map((f) => f.featureCode),
    },
  };
}

/**
 * The state's key set, refreshed from the server only when it lacks the token's key (the tenant
 * rotated). With the server down the cached set is used as it is.
 */
async function keysFor(
  state: ClientState,
  token: string,
): Promise<{ jwks: JSONWebKeySet; refreshed: boolean }> {
  if (jwksHasKid(state.jwks, token)) return { jwks: state.jwks, refreshed: false };
  try {
    return { jwks: await fetchJwks(state.url, state.tenantId), refreshed: true };
  } catch {
    return { jwks: state.jwks, refreshed: false };
  }
}

/** Offline check of the stored token: works with the server down (cached JWKS). */
export async function verifyStored(options: { stateFile: string; fingerprint?: string; currentDate?: Date }) {
  const state = await readState(options.stateFile);
  const { jwks, refreshed } = await keysFor(state, state.token);
  const claims = await verifyLicenseToken(state.token, jwks, {
    fingerprint: options.fingerprint,
    currentDate: options.currentDate,
  });
  if (refreshed)
    await writeState(options.stateFile, { ...state, jwks, jwksFetchedAt: new Date().toISOString() });
  return { valid: true, deviceChecked: options.fingerprint !== undefined, ...tokenSummary(claims) };
}

/** Renew, check-in or release with the stored token. Renew's fresh token is verified and stored. */
export async function sessionCall(op: "renew" | "check-in" | "release", options: { stateFile: string }) {
  const state = await readState(options.stateFile);
  const lease = await callJson<SessionLease>(
    state.url,
    "POST",
    `${ACTIVATIONS}/${encodeURIComponent(state.sessionId)}/${op}`,
    { token: state.token },
  );
  const { token, ...rest } = lease;
  if (op === "renew" && token) {
    const { jwks } = await keysFor(state, token);
    const claims = await verifyLicenseToken(token, jwks);
    if (claims.sub !== state.sessionId)
      throw new ClientError(EXIT.verificationFailed, "The renewed token names another session.");
    await writeState(options.stateFile, { ...state, token, jwks });
  }
  return { op, ...rest };
}

/** Builds an offline request artifact; with `out`, also writes it there. */
export async function offlineRequest(options: {
  code: string;
  fingerprint: string;
  components?: Record<string, string>;
  out?: string;
}) {
  const artifact = buildOfflineRequest({
    activationCode: options.code,
    fingerprint: options.fingerprint,
    components: options.components,
  });
  if (options.out) await writeFile(options.out, `${JSON.stringify(artifact, null, 2)}\n`);
  return artifact;
}

async function readJsonFile<T>(file: string, what: string): Promise<T> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as T;
  } catch (error) {
    throw new ClientError(
      EXIT.usage,
      `Cannot read the ${what} ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Verifies an offline response artifact against a JWKS (from a URL or a file) and prints its license. */
export async function offlineVerify(options: {
  response: string;
  jwksUrl?: string;
  jwksFile?: string;
  request?: string;
}) {
  if (!options.jwksUrl === !options.jwksFile)
    throw new ClientError(EXIT.usage, "Give exactly one of --jwks-url and --jwks-file.");
  const response = await readJsonFile<OfflineResponse>(options.response, "response artifact");
  const jwks = options.jwksFile
    ? await readJsonFile<JSONWebKeySet>(options.jwksFile, "JWKS file")
    : await callJson<JSONWebKeySet>(options.jwksUrl!, "GET", "");
  if (!Array.isArray(jwks?.keys)) throw new ClientError(EXIT.usage, "The JWKS has no keys array.");
  const request = options.request
    ? await readJsonFile<OfflineRequest>(options.request, "request artifact")
    : undefined;
  const { kid, license } = verifyOfflineResponse(response, jwks, request);
  return { valid: true, kid, nonceChecked: request !== undefined, license };
}
