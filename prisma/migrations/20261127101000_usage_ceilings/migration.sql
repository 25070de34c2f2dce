-- Issue 21 item 4: what one usage record and one batch may report of a metric, per monitored
-- asset (null: the service defaults, 10^9 and 10^12). docs/security.md "Round 3".
ALTER TABLE "MonitoredAsset" ADD COLUMN "usageRecordCeiling" DECIMAL(24,6),
ADD COLUMN "usageBatchCeiling" DECIMAL(24,6);
