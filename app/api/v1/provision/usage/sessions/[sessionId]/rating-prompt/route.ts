// Served from server/http/runtime-api, whose handlers the runtime lane (server/web) calls too.
export { GET } from "@/server/http/runtime-api/rating-prompt";
