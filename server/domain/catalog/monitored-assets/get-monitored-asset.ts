import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { loadMonitoredAsset } from "./monitored-asset-response.ts";

export async function getMonitoredAsset(ctx: DomainContext, id: string) {
  const asset = await loadMonitoredAsset(ctx.db, id);
  if (!asset) throw notFound("Monitored asset");
  return asset;
}
