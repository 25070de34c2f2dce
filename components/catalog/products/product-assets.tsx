"use client";

import Link from "next/link";
import type { TProductResponse } from "@/server/domain/catalog/products/product.schemas";

/** Metrics (one per monitored asset) and the monitored assets with their charging. */
export function ProductAssets({ product, readOnly }: { product: TProductResponse; readOnly: boolean }) {
  return (
    <>
      <section className="panel" aria-labelledby="metrics-heading">
        <div className="panel-head">
          <h2 id="metrics-heading">Metrics</h2>
          <span className="muted small">What the application reports, matched by exact metric name.</span>
        </div>
        <div className="table-wrap">
          <table className="table table-compact" aria-label="Metrics">
            <thead>
              <tr>
                <th scope="col">Metric name</th>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Unit</th>
                <th scope="col">Category</th>
                <th scope="col">Format</th>
              </tr>
            </thead>
            <tbody>
              {product.metrics.length === 0 ? (
                <tr>
                  <td colSpan={6} className="table-empty">
                    No metrics: add a monitored asset.
                  </td>
                </tr>
              ) : (
                product.metrics.map((m) => (
                  <tr key={m.id}>
                    <td>
                      <code>{m.metricName}</code>
                    </td>
                    <td>{m.name}</td>
                    <td>{m.metricType}</td>
                    <td>{m.unit || <span className="muted">—</span>}</td>
                    <td>{m.category || <span className="muted">—</span>}</td>
                    <td>{m.numberFormat || <span className="muted">—</span>}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </section>

      <section className="panel" aria-labelledby="assets-heading">
        <div className="panel-head">
          <h2 id="assets-heading">Monitored assets</h2>
          <span className="toolbar-spacer" />
          {readOnly ? null : (
            <Link
              className="btn btn-primary btn-small"
              href={`/admin/products/${product.id}/monitored-assets/new`}
            >
              Add monitored asset
            </Link>
          )}
        </div>
        <div className="table-wrap">
          <table className="table table-compact" aria-label="Monitored assets">
            <thead>
              <tr>
                <th scope="col">Metric</th>
                <th scope="col">Name</th>
                <th scope="col">Charging</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {product.monitoredAssets.length === 0 ? (
                <tr>
                  <td colSpan={4} className="table-empty">
                    No monitored assets.
                  </td>
                </tr>
              ) : (
                product.monitoredAssets.map((a) => (
                  <tr key={a.id} data-testid="product-asset-row">
                    <td>
                      <Link className="link-strong" href={`/admin/monitored-assets/${a.id}`}>
                        <code>{a.metricName}</code>
                      </Link>
                    </td>
                    <td>{a.name}</td>
                    <td>
                      {a.meteredUsage ? (
                        "Metered"
                      ) : a.balanceUsage ? (
                        "Credit balance"
                      ) : (
                        <span className="muted">Tracked only</span>
                      )}
                    </td>
                    <td className="small">
                      {a.meteredUsage
                        ? `${a.meteredUsage.usageTiers.length} tier(s) · ${a.meteredUsage.consumptionPeriod ? `per ${a.meteredUsage.consumptionPeriod}` : "lifetime"}`
                        : a.balanceUsage
                          ? `${a.balanceUsage.isUnlimitedCredits ? "unlimited" : `${a.balanceUsage.initialCreditAmount} initial credits`}${a.balanceUsage.autoBalanceCronSchedule ? ` · refills ${a.balanceUsage.autoBalanceCronSchedule}` : ""}`
                          : ""}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
