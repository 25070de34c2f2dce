// Preloaded into the web process (node --import): stamps every request with the TCP peer's
// address in `x-licensing-peer-address`, overwriting anything a client sent under that name.
// Next.js route handlers see no socket, and Next only fills X-Forwarded-For when the client did
// not send one, so without this a caller could choose its own address for allowedIpCidr.
import http from "node:http";

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function patchedEmit(event, req, ...rest) {
  if (event === "request" && req && req.headers) req.headers["x-licensing-peer-address"] = req.socket?.remoteAddress ?? "";
  return emit.call(this, event, req, ...rest);
};
