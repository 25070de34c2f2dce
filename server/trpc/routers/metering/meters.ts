import { z } from "zod";
import { consumerProcedure, router, staffProcedure } from "../../init.ts";
import {
  listEntitlementMeters,
  meterHistory,
} from "../../../domain/metering/meters/list-entitlement-meters.ts";
import { ZEntitlementMeter, ZMeterPeriodPoint } from "../../../domain/metering/meters/meter.schemas.ts";
import {
  consumerBalanceHistory,
  consumerMeterHistory,
  consumerUsage,
  ZConsumerUsage,
} from "../../../domain/metering/meters/consumer-usage.ts";

const ZEntitlement = z.object({ entitlementId: z.string().uuid() });
const ZMetric = ZEntitlement.extend({ metricName: z.string().min(1).max(200) });

/** Back office and portal: an entitlement's meters, their usage per period and balance history. */
export const metersRouter = router({
  list: staffProcedure("metering")
    .input(ZEntitlement)
    .output(z.array(ZEntitlementMeter))
    .query(({ ctx, input }) => listEntitlementMeters(ctx.domain, input.entitlementId)),
  history: staffProcedure("metering")
    .input(ZMetric)
    .output(z.array(ZMeterPeriodPoint))
    .query(({ ctx, input }) => meterHistory(ctx.domain, input.entitlementId, input.metricName)),

  mine: consumerProcedure
    .input(ZEntitlement)
    .output(ZConsumerUsage)
    .query(({ ctx, input }) => consumerUsage(ctx.domain, input.entitlementId)),
  myHistory: consumerProcedure
    .input(ZMetric)
    .output(z.array(ZMeterPeriodPoint))
    .query(({ ctx, input }) => consumerMeterHistory(ctx.domain, input.entitlementId, input.metricName)),
  myBalanceHistory: consumerProcedure
    .input(ZMetric)
    .query(({ ctx, input }) => consumerBalanceHistory(ctx.domain, input.entitlementId, input.metricName)),
});
