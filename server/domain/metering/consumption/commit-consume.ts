import { randomUUID } from "node:crypto";
import type { Sql } from "../../../db/sql.ts";
import { now } from "../../../clock.ts";
import type { EntitlementMeters, MeterTerms } from "../meters/meter-terms.ts";
import { emitSeverityChanges, type SeverityChange } from "../overage/overage-events.ts";
import { micros, toDecimalString } from "../quantity.ts";
import { Answer, answer, replay, type ConsumeInput } from "./consume-answer.ts";
import { READ_KEY, WRITE_CONSUME } from "./consume-sql.ts";
import { decideOn } from "./decide-on-meter.ts";

/** The binding consume: lock, decide, write the ledger and counters, report severity changes, commit. */
export async function commitConsume(
  sql: Sql,
  tenantId: string,
  input: ConsumeInput,
  meters: EntitlementMeters,
  terms: MeterTerms,
) {
  const amount = micros(input.amount);
  try {
    return await sql.transaction(
      tenantId,
      async (client) => {
        const at = now();
        const { decision, period, lastSeverity } = await decideOn(
          client,
          "commit",
          tenantId,
          input,
          meters,
          terms,
          amount,
          at,
        );
        const result = answer(input, terms, period, decision, amount, decision.allowed, at);
        // A refusal writes nothing (and is not remembered under the idempotencyKey).
        if (!decision.allowed) throw new Answer(result);

        const entryId = randomUUID();
        const charged = decision.charges.reduce((sum, c) => sum + c.credits, 0n);
        const written = await client.query<any>({ name: "metering.write_consume", text: WRITE_CONSUME }, [
          tenantId,
          input.entitlementId,
          entryId,
          input.sessionId,
          input.metricName,
          toDecimalString(amount),
          terms.monitoredAssetId,
          period.key,
          toDecimalString(decision.usageAfter),
          at,
          decision.tierName,
          decision.severity,
          input.idempotencyKey ?? null,
          JSON.stringify(result),
          toDecimalString(decision.overageUnits),
          toDecimalString(decision.creditsPriced),
          toDecimalString(charged),
          decision.reportedBalance?.metricName ?? null,
          decision.reportedBalance ? toDecimalString(decision.reportedBalance.remaining) : null,
          decision.charges.map((c) => c.balance.id),
          decision.charges.map((c) => toDecimalString(c.credits)),
          decision.charges.map((c) => c.severityAfter),
          terms.kind === "Balance" ? "Consume" : "OverageCharge",
          decision.charges.map((c) => c.balance.metricName),
        ]);
        if (written[0].written === 0) {
          // A concurrent consume with the same key committed first: answer what it answered.
          const rows = await client.query<any>({ name: "metering.read_consume_key", text: READ_KEY }, [
            tenantId,
            input.entitlementId,
            input.idempotencyKey,
          ]);
          throw new Answer(replay(rows[0], input.metricName, amount)!);
        }

        const changes: SeverityChange[] = decision.charges
          .filter((c) => c.severityAfter !== c.balance.overageSeverityStatus)
          .map((c) => ({
            usageKind: "Balance",
            monitoredAssetId: meters.meters.get(c.balance.metricName)!.monitoredAssetId,
            metricName: c.balance.metricName,
            previous: c.balance.overageSeverityStatus,
            severity: c.severityAfter,
            usage: c.creditsUsedAfter,
            limit: c.balance.isUnlimitedCredits ? null : c.balance.totalCredits,
          }));
        if (terms.kind === "Metered" && decision.severity !== lastSeverity)
          changes.push({
            usageKind: "Metered",
            monitoredAssetId: terms.monitoredAssetId,
            meteredUsageId: terms.meteredUsageId!,
            metricName: terms.metricName,
            previous: "None",
            severity: decision.severity,
            tierName: decision.tierName,
            usage: decision.usageAfter,
            limit: terms.ladder.limit,
            period,
          });
        if (changes.length) await emitSeverityChanges(client, tenantId, input.entitlementId, changes, at);
        return result;
      },
      // The ledger is the consume's own: never a caller's transaction (the route's Idempotency-Key one).
      { own: true },
    );
  } catch (error) {
    if (error instanceof Answer) return error.decision;
    throw error;
  }
}
