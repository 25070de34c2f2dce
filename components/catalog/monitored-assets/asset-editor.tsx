"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import {
  ZMonitoredAssetCreateRequest,
  ZMonitoredAssetUpdateRequest,
  accumulationMethods,
  consumptionPeriods,
  metricTypes,
  periodAnchors,
  type TMonitoredAssetResponse,
} from "@/server/domain/catalog/monitored-assets/monitored-asset.schemas";
import {
  validateUsageTiers,
  type TUsageTier,
} from "@/server/domain/catalog/monitored-assets/usage-tier.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { Field } from "../../ui/field";
import { ProblemAlert } from "../../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../../ui/problem";
import { TierTableEditor, tierInput, tierRow, type TierRow } from "./tier-table-editor";
import { QuotaBandsEditor, type BandRow } from "./quota-bands-editor";

type UsageKind = "None" | "Metered" | "Balance";
type BalanceForm = {
  name: string;
  description: string;
  unit: string;
  numberFormat: string;
  initialCreditAmount: string;
  isUnlimitedCredits: boolean;
  autoBalanceCronSchedule: string;
  shouldAutoBalanceTransferCurrentCredits: boolean;
  maxAutoBalanceCreditTransferAmount: string;
  autoBalanceCreditAmount: string;
  bands: BandRow[];
};

const list = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
const numOr = (s: string, blank: number | null) => (s.trim() === "" ? blank : Number(s));

function balanceForm(asset?: TMonitoredAssetResponse): BalanceForm {
  const b = asset?.balanceUsage;
  return {
    name: b?.name ?? "",
    description: b?.description ?? "",
    unit: b?.unit ?? "",
    numberFormat: b?.numberFormat ?? "",
    initialCreditAmount: String(b?.initialCreditAmount ?? 0),
    isUnlimitedCredits: b?.isUnlimitedCredits ?? false,
    autoBalanceCronSchedule: b?.autoBalanceCronSchedule ?? "",
    shouldAutoBalanceTransferCurrentCredits: b?.shouldAutoBalanceTransferCurrentCredits ?? false,
    maxAutoBalanceCreditTransferAmount:
      b?.maxAutoBalanceCreditTransferAmount == null ? "" : String(b.maxAutoBalanceCreditTransferAmount),
    autoBalanceCreditAmount: b?.autoBalanceCreditAmount == null ? "" : String(b.autoBalanceCreditAmount),
    bands: (b?.usageQuota ?? []).map((q) => ({
      endUsage: String(q.endUsage),
      name: q.name,
      quotaUsageLevel: q.quotaUsageLevel,
    })),
  };
}

function balanceInput(f: BalanceForm) {
  return {
    name: f.name,
    description: f.description,
    unit: f.unit,
    numberFormat: f.numberFormat,
    initialCreditAmount: numOr(f.initialCreditAmount, 0),
    isUnlimitedCredits: f.isUnlimitedCredits,
    autoBalanceCronSchedule: f.autoBalanceCronSchedule.trim() || null,
    shouldAutoBalanceTransferCurrentCredits: f.shouldAutoBalanceTransferCurrentCredits,
    maxAutoBalanceCreditTransferAmount: numOr(f.maxAutoBalanceCreditTransferAmount, null),
    autoBalanceCreditAmount: numOr(f.autoBalanceCreditAmount, null),
    usageQuota: f.bands.map((b) => ({
      endUsage: numOr(b.endUsage, NaN),
      name: b.name,
      quotaUsageLevel: b.quotaUsageLevel,
    })),
  };
}

/**
 * Creates a product's monitored asset (`productId`) or edits one (`asset`): the metric, and either
 * metered usage (tier table, period) or a credit balance (credits, auto-balance, quota bands).
 */
export function AssetEditor({ productId, asset }: { productId: string; asset?: TMonitoredAssetResponse }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const currentKind: UsageKind = asset?.meteredUsage ? "Metered" : asset?.balanceUsage ? "Balance" : "None";
  const [metricName, setMetricName] = useState(asset?.metricName ?? "");
  const [name, setName] = useState(asset?.name ?? "");
  const [description, setDescription] = useState(asset?.description ?? "");
  const [unit, setUnit] = useState(asset?.unit ?? "");
  const [category, setCategory] = useState(asset?.category ?? "");
  const [numberFormat, setNumberFormat] = useState(asset?.numberFormat ?? "");
  const [metricType, setMetricType] = useState(asset?.metricType ?? "CumulativeCounter");
  const [tags, setTags] = useState(asset?.tags.join(", ") ?? "");
  const [tolerance, setTolerance] = useState(asset?.allowedBackDatingTolerance ?? "");
  const [kind, setKind] = useState<UsageKind>(currentKind);
  const [consumptionPeriod, setConsumptionPeriod] = useState(
    asset?.meteredUsage?.consumptionPeriod ?? "month",
  );
  const [periodAnchor, setPeriodAnchor] = useState(asset?.meteredUsage?.periodAnchor ?? "Calendar");
  const [accumulationMethod, setAccumulationMethod] = useState(
    asset?.meteredUsage?.accumulationMethod ?? "Sliced",
  );
  const [tiers, setTiers] = useState<TierRow[]>((asset?.meteredUsage?.usageTiers ?? []).map(tierRow));
  const [balance, setBalance] = useState<BalanceForm>(balanceForm(asset));
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);

  const balances = useQuery(
    trpc.products.monitoredAssets.queryOptions({
      id: productId,
      pageNumber: 1,
      pageSize: 100,
      filter: "usageKind==Balance",
    }),
  );
  const balanceMetrics = (balances.data?.items ?? [])
    .map((a) => a.metricName)
    .filter((m) => m !== asset?.metricName);

  const onSuccess = async (saved: TMonitoredAssetResponse) => {
    await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.monitoredAssets.pathKey() });
    if (!asset) router.push(`/admin/products/${productId}`);
    else setTiers((saved.meteredUsage?.usageTiers ?? []).map(tierRow));
  };
  const create = useMutation(trpc.products.createMonitoredAsset.mutationOptions({ onSuccess }));
  const update = useMutation(trpc.monitoredAssets.update.mutationOptions({ onSuccess }));
  const mutation = asset ? update : create;
  const problem = localProblem ?? problemFrom(mutation.error);
  const setB = (patch: Partial<BalanceForm>) => setBalance({ ...balance, ...patch });

  function checkLadder(usageTiers: TUsageTier[]): boolean {
    const issues = validateUsageTiers(usageTiers, {
      balanceMetricNames: balanceMetrics,
      path: "meteredUsage.usageTiers",
    });
    if (issues.length)
      setLocalProblem(
        validationProblem(issues.map((i) => ({ path: i.path.split("."), message: i.message }))),
      );
    return issues.length === 0;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    mutation.reset();
    const metered = { usageTiers: tiers.map(tierInput), consumptionPeriod, periodAnchor, accumulationMethod };
    if (!asset) {
      const parsed = ZMonitoredAssetCreateRequest.safeParse({
        metricName,
        name,
        description,
        unit,
        category,
        numberFormat,
        metricType,
        tags: list(tags),
        allowedBackDatingTolerance: tolerance.trim() || null,
        meteredUsage: kind === "Metered" ? metered : null,
        balanceUsage: kind === "Balance" ? balanceInput(balance) : null,
      });
      if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
      if (parsed.data.meteredUsage && !checkLadder(parsed.data.meteredUsage.usageTiers)) return;
      create.mutate({ id: productId, asset: parsed.data });
      return;
    }
    const b = balanceInput(balance);
    const parsed = ZMonitoredAssetUpdateRequest.safeParse({
      metricName,
      name,
      description,
      unit,
      category,
      numberFormat,
      metricType,
      tags: list(tags),
      ...(tolerance.trim()
        ? { allowedBackDatingTolerance: tolerance.trim() }
        : { clearAllowedBackDatingTolerance: asset.allowedBackDatingTolerance !== null }),
      ...(kind === "Metered" ? { meteredUsage: metered } : {}),
      ...(currentKind === "Metered" && kind !== "Metered" ? { clearMeteredUsage: true } : {}),
      ...(kind === "Balance"
        ? {
            balanceUsage: {
              ...b,
              ...(b.autoBalanceCronSchedule === null
                ? { autoBalanceCronSchedule: undefined, clearAutoBalanceCronSchedule: true }
                : {}),
              ...(b.maxAutoBalanceCreditTransferAmount === null
                ? {
                    maxAutoBalanceCreditTransferAmount: undefined,
                    clearMaxAutoBalanceCreditTransferAmount: true,
                  }
                : {}),
              ...(b.autoBalanceCreditAmount === null
                ? { autoBalanceCreditAmount: undefined, clearAutoBalanceCreditAmount: true }
                : {}),
            },
          }
        : {}),
      revisionNumber: asset.revisionNumber,
    });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    if (parsed.data.meteredUsage?.usageTiers && !checkLadder(parsed.data.meteredUsage.usageTiers)) return;
    update.mutate({ id: asset.id, patch: parsed.data });
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Monitored asset">
      <ProblemAlert problem={problem} />
      {update.isSuccess && !update.isPending ? (
        <div className="alert alert-ok" role="status">
          Saved.
        </div>
      ) : null}
      <section className="panel">
        <div className="panel-head">
          <h2>Metric</h2>
        </div>
        <div className="form-grid">
          <Field
            label="Metric name"
            htmlFor="asset-metric"
            hint="Lowercase; the application reports under exactly this name."
            error={fieldError(problem, "metricName")}
          >
            <input
              id="asset-metric"
              className="mono"
              value={metricName}
              onChange={(e) => setMetricName(e.target.value)}
            />
          </Field>
          <Field label="Name" htmlFor="asset-name" error={fieldError(problem, "name")}>
            <input id="asset-name" value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label="Metric type" htmlFor="asset-type">
            <select id="asset-type" value={metricType} onChange={(e) => setMetricType(e.target.value)}>
              {metricTypes.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Unit" htmlFor="asset-unit">
            <input id="asset-unit" value={unit} onChange={(e) => setUnit(e.target.value)} />
          </Field>
          <Field label="Category" htmlFor="asset-category">
            <input id="asset-category" value={category} onChange={(e) => setCategory(e.target.value)} />
          </Field>
          <Field label="Number format" htmlFor="asset-format">
            <input id="asset-format" value={numberFormat} onChange={(e) => setNumberFormat(e.target.value)} />
          </Field>
          <Field
            label="Back-dating tolerance"
            htmlFor="asset-tolerance"
            hint="ISO 8601 duration, e.g. P7D; blank = service default."
            error={fieldError(problem, "allowedBackDatingTolerance")}
          >
            <input
              id="asset-tolerance"
              className="mono"
              value={tolerance}
              onChange={(e) => setTolerance(e.target.value)}
              placeholder="P7D"
            />
          </Field>
          <Field label="Tags" htmlFor="asset-tags" hint="Comma-separated.">
            <input id="asset-tags" value={tags} onChange={(e) => setTags(e.target.value)} />
          </Field>
        </div>
        <Field label="Description" htmlFor="asset-description">
          <input
            id="asset-description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </Field>
      </section>

      <section className="panel">
        <div className="panel-head">
          <h2>Charging</h2>
        </div>
        <div className="usage-kind" role="radiogroup" aria-label="Charging">
          {(["None", "Metered", "Balance"] as const).map((k) => (
            <label key={k} className="checkbox">
              <input
                type="radio"
                name="usage-kind"
                value={k}
                checked={kind === k}
                disabled={currentKind === "Balance" && k !== "Balance"}
                onChange={() => setKind(k)}
              />
              {k === "None" ? "Tracked only" : k === "Metered" ? "Metered usage (tiers)" : "Credit balance"}
            </label>
          ))}
        </div>
        {currentKind === "Balance" ? (
          <p className="muted small">To stop using the balance, delete it (below the form).</p>
        ) : null}

        {kind === "Metered" ? (
          <div className="form">
            <div className="form-grid">
              <Field
                label="Consumption period"
                htmlFor="asset-period"
                hint="Blank: a lifetime allowance that never resets."
                error={fieldError(problem, "consumptionPeriod")}
              >
                <select
                  id="asset-period"
                  value={consumptionPeriod}
                  onChange={(e) => setConsumptionPeriod(e.target.value)}
                >
                  {consumptionPeriods.map((p) => (
                    <option key={p} value={p}>
                      {p || "(lifetime)"}
                    </option>
                  ))}
                </select>
              </Field>
              <Field label="Period anchor" htmlFor="asset-anchor">
                <select
                  id="asset-anchor"
                  value={periodAnchor}
                  onChange={(e) => setPeriodAnchor(e.target.value)}
                >
                  {periodAnchors.map((p) => (
                    <option key={p} value={p}>
                      {p}
                    </option>
                  ))}
                </select>
              </Field>
              <Field
                label="Accumulation"
                htmlFor="asset-accumulation"
                hint="Sliced: each unit at its own tier."
              >
                <select
                  id="asset-accumulation"
                  value={accumulationMethod}
                  onChange={(e) => setAccumulationMethod(e.target.value)}
                >
                  {accumulationMethods.map((m) => (
                    <option key={m} value={m}>
                      {m}
                    </option>
                  ))}
                </select>
              </Field>
            </div>
            <TierTableEditor
              rows={tiers}
              onChange={setTiers}
              balanceMetrics={balanceMetrics}
              problem={problem}
            />
          </div>
        ) : null}

        {kind === "Balance" ? (
          <div className="form">
            <div className="form-grid">
              <Field
                label="Balance name"
                htmlFor="balance-name"
                error={fieldError(problem, "balanceUsage.name")}
              >
                <input
                  id="balance-name"
                  value={balance.name}
                  onChange={(e) => setB({ name: e.target.value })}
                />
              </Field>
              <Field
                label="Initial credits"
                htmlFor="balance-initial"
                hint="Available when an entitlement is created."
                error={fieldError(problem, "initialCreditAmount")}
              >
                <input
                  id="balance-initial"
                  inputMode="decimal"
                  value={balance.initialCreditAmount}
                  onChange={(e) => setB({ initialCreditAmount: e.target.value })}
                />
              </Field>
              <Field label="Unit" htmlFor="balance-unit">
                <input
                  id="balance-unit"
                  value={balance.unit}
                  onChange={(e) => setB({ unit: e.target.value })}
                />
              </Field>
              <Field label="Number format" htmlFor="balance-format">
                <input
                  id="balance-format"
                  value={balance.numberFormat}
                  onChange={(e) => setB({ numberFormat: e.target.value })}
                />
              </Field>
              <Field
                label="Auto-balance schedule"
                htmlFor="balance-cron"
                hint="Five-field cron (UTC), e.g. 0 0 1 * *"
                error={fieldError(problem, "autoBalanceCronSchedule")}
              >
                <input
                  id="balance-cron"
                  className="mono"
                  value={balance.autoBalanceCronSchedule}
                  onChange={(e) => setB({ autoBalanceCronSchedule: e.target.value })}
                  placeholder="0 0 1 * *"
                />
              </Field>
              <Field
                label="Auto-balance credits"
                htmlFor="balance-auto-amount"
                error={fieldError(problem, "autoBalanceCreditAmount")}
              >
                <input
                  id="balance-auto-amount"
                  inputMode="decimal"
                  value={balance.autoBalanceCreditAmount}
                  onChange={(e) => setB({ autoBalanceCreditAmount: e.target.value })}
                />
              </Field>
              <Field
                label="Max credits carried over"
                htmlFor="balance-max-transfer"
                error={fieldError(problem, "maxAutoBalanceCreditTransferAmount")}
              >
                <input
                  id="balance-max-transfer"
                  inputMode="decimal"
                  value={balance.maxAutoBalanceCreditTransferAmount}
                  onChange={(e) => setB({ maxAutoBalanceCreditTransferAmount: e.target.value })}
                />
              </Field>
            </div>
            <Field label="Balance description" htmlFor="balance-description">
              <input
                id="balance-description"
                value={balance.description}
                onChange={(e) => setB({ description: e.target.value })}
              />
            </Field>
            <div className="chips">
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={balance.isUnlimitedCredits}
                  onChange={(e) => setB({ isUnlimitedCredits: e.target.checked })}
                />{" "}
                Unlimited credits
              </label>
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={balance.shouldAutoBalanceTransferCurrentCredits}
                  onChange={(e) => setB({ shouldAutoBalanceTransferCurrentCredits: e.target.checked })}
                />{" "}
                Carry remaining credits over on auto-balance
              </label>
            </div>
            {asset?.balanceUsage ? (
              <dl className="facts">
                <div>
                  <dt>Total credits</dt>
                  <dd>{asset.balanceUsage.totalCredits}</dd>
                </div>
                <div>
                  <dt>Used since last deposit</dt>
                  <dd>{asset.balanceUsage.creditsUsed}</dd>
                </div>
                <div>
                  <dt>Used ever</dt>
                  <dd>{asset.balanceUsage.cumulativeCreditsUsed}</dd>
                </div>
                <div>
                  <dt>Unfunded</dt>
                  <dd>{asset.balanceUsage.unfundedCredits}</dd>
                </div>
                <div>
                  <dt>Overage severity</dt>
                  <dd>{asset.balanceUsage.overageSeverityStatus}</dd>
                </div>
              </dl>
            ) : null}
            <fieldset className="form-section">
              <legend>Usage quota bands</legend>
              <QuotaBandsEditor rows={balance.bands} onChange={(bands) => setB({ bands })} />
            </fieldset>
          </div>
        ) : null}
      </section>

      <div>
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {mutation.isPending ? "Saving…" : asset ? "Save monitored asset" : "Create monitored asset"}
        </button>
      </div>
    </form>
  );
}
