"use client";

import { useController } from "react-hook-form";
import type { TMonitoredAssetResponse } from "@/server/domain/catalog/monitored-assets/monitored-asset.schemas";
import { CheckboxField, NumberField, TextField } from "../../ui/form";
import { formatQuantity } from "../../ui/format";
import { QuotaBandsEditor, type BandRow } from "./quota-bands-editor";

/** A credit balance: its credits, auto-balance schedule and quota bands, and its counters when it exists. */
export function AssetBalanceFields({ balance }: { balance?: TMonitoredAssetResponse["balanceUsage"] }) {
  const { field: bands } = useController({ name: "balanceUsage.usageQuota" });
  return (
    <div className="form">
      <div className="form-grid">
        <TextField name="balanceUsage.name" label="Balance name" />
        <NumberField
          name="balanceUsage.initialCreditAmount"
          label="Initial credits"
          unit="credits"
          emptyAs={null}
          hint="Available when an entitlement is created."
        />
        <TextField name="balanceUsage.unit" label="Unit" />
        <TextField name="balanceUsage.numberFormat" label="Number format" />
        <TextField
          name="balanceUsage.autoBalanceCronSchedule"
          label="Auto-balance schedule"
          mono
          placeholder="0 0 1 * *"
          hint="Five-field cron (UTC), e.g. 0 0 1 * *"
        />
        <NumberField
          name="balanceUsage.autoBalanceCreditAmount"
          label="Auto-balance credits"
          unit="credits"
          emptyAs={null}
        />
        <NumberField
          name="balanceUsage.maxAutoBalanceCreditTransferAmount"
          label="Max credits carried over"
          unit="credits"
          emptyAs={null}
        />
      </div>
      <TextField name="balanceUsage.description" label="Balance description" />
      <div className="chips">
        <CheckboxField name="balanceUsage.isUnlimitedCredits" label="Unlimited credits" />
        <CheckboxField
          name="balanceUsage.shouldAutoBalanceTransferCurrentCredits"
          label="Carry remaining credits over on auto-balance"
        />
      </div>
      {balance ? (
        <dl className="facts">
          <div>
            <dt>Total credits</dt>
            <dd>{formatQuantity(balance.totalCredits)}</dd>
          </div>
          <div>
            <dt>Used since last deposit</dt>
            <dd>{formatQuantity(balance.creditsUsed)}</dd>
          </div>
          <div>
            <dt>Used ever</dt>
            <dd>{formatQuantity(balance.cumulativeCreditsUsed)}</dd>
          </div>
          <div>
            <dt>Unfunded</dt>
            <dd>{formatQuantity(balance.unfundedCredits)}</dd>
          </div>
          <div>
            <dt>Overage severity</dt>
            <dd>{balance.overageSeverityStatus}</dd>
          </div>
        </dl>
      ) : null}
      <fieldset className="form-section">
        <legend>Usage quota bands</legend>
        <QuotaBandsEditor rows={bands.value as BandRow[]} onChange={bands.onChange} />
      </fieldset>
    </div>
  );
}
