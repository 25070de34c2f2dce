"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "../../shell/trpc-provider";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { ProblemAlert } from "../../ui/problem-alert";
import { problemFrom } from "../../ui/problem";
import { AssetEditor } from "./asset-editor";

/** One monitored asset: the editor, and deleting its balance or the whole asset (asked first). */
export function AssetDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [confirm, setConfirm] = useState<"asset" | "balance" | null>(null);
  const query = useQuery(trpc.monitoredAssets.get.queryOptions({ id }));
  // What refers to the asset: the copies entitlements and offers hold (shown before any delete).
  const copies = useQuery({
    ...trpc.monitoredAssets.list.queryOptions({ filter: `sourceAssetId==${id}`, pageNumber: 1, pageSize: 0 }),
    enabled: confirm !== null,
  });
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.monitoredAssets.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
  };
  const removeAsset = useMutation(
    trpc.monitoredAssets.delete.mutationOptions({
      onSuccess: async () => {
        await refresh();
        router.push(
          query.data?.productId ? `/admin/products/${query.data.productId}` : "/admin/monitored-assets",
        );
      },
    }),
  );
  const removeBalance = useMutation(
    trpc.monitoredAssets.deleteBalance.mutationOptions({
      onSuccess: async () => {
        await refresh();
        setConfirm(null);
      },
    }),
  );

  if (query.error) return <ProblemAlert problem={problemFrom(query.error)} />;
  const asset = query.data;
  if (!asset) return <p className="muted">Loading…</p>;
  const owner = asset.entitlementId ? "an entitlement" : asset.offerId ? "an offer" : null;
  const mutation = confirm === "asset" ? removeAsset : removeBalance;

  return (
    <>
      <div className="crumbs">
        <Link href="/admin/monitored-assets">Monitored assets</Link> /{" "}
        {asset.productId ? <Link href={`/admin/products/${asset.productId}`}>product</Link> : null}
      </div>
      <div className="detail-head">
        <div>
          <h1>
            <code>{asset.metricName}</code>
          </h1>
          <div className="chips">
            <span>{asset.name}</span>
            {owner ? <span className="badge">copy held by {owner}</span> : null}
            {asset.tags.map((t) => (
              <span key={t} className="badge">
                {t}
              </span>
            ))}
          </div>
        </div>
        <span className="row-actions">
          {asset.balanceUsage ? (
            <button
              type="button"
              className="btn btn-danger-ghost"
              onClick={() => {
                removeBalance.reset();
                setConfirm("balance");
              }}
            >
              Delete balance
            </button>
          ) : null}
          <button
            type="button"
            className="btn btn-danger-ghost"
            onClick={() => {
              removeAsset.reset();
              setConfirm("asset");
            }}
          >
            Delete asset
          </button>
        </span>
      </div>
      {asset.productId ? (
        <AssetEditor key={asset.id} productId={asset.productId} asset={asset} />
      ) : (
        <p className="muted">Copies held by entitlements and offers are edited there.</p>
      )}
      <ConfirmDialog
        open={confirm !== null}
        title={
          confirm === "balance"
            ? `Delete the balance of “${asset.metricName}”?`
            : `Delete monitored asset “${asset.metricName}”?`
        }
        confirmLabel={confirm === "balance" ? "Delete balance" : "Delete asset"}
        danger
        busy={mutation.isPending}
        problem={problemFrom(mutation.error)}
        onCancel={() => setConfirm(null)}
        onConfirm={() =>
          confirm === "balance"
            ? removeBalance.mutate({ balanceId: asset.balanceUsage!.id })
            : removeAsset.mutate({ id })
        }
      >
        {owner ? null : (
          <p data-testid="referenced-by">
            {copies.data
              ? `Copies held by entitlements or offers: ${copies.data.totalCount}.`
              : "Checking for copies held by entitlements or offers…"}
          </p>
        )}
        <p>
          {owner
            ? `This is a copy held by ${owner}; it cannot be deleted while that ${owner.slice(owner.indexOf(" ") + 1)} is Draft or Published, because metering draws on it.`
            : "Copies already held by entitlements and offers are left as they are; new ones will not get it."}
        </p>
        {confirm === "asset" ? (
          <p className="muted small">
            The metric disappears from the product&apos;s metrics; applications reporting under it are no
            longer counted.
          </p>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
