// Served from server/http/runtime-api, whose handlers the runtime lane (server/web) calls too.
export { POST } from "@/server/http/runtime-api/preview-consume";
