"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "../../shell/trpc-provider";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { ProblemAlert } from "../../ui/problem-alert";
import { problemFrom } from "../../ui/problem";
import { formatDate, formatDateTime } from "../../ui/format";
import { ReferencedBy, StatusBadge } from "../referenced-by";
import { ProductFormDialog } from "./product-form-dialog";
import { ProductFeatures } from "./product-features";
import { ProductProperties } from "./product-properties";
import { ProductAssets } from "./product-assets";
import { Tabs } from "../../ui/tabs";
import { AuditHistory } from "../../audit/audit-history";

/** One product: its fields, features (in sell order), properties, metrics and monitored assets; its history. */
export function ProductDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const query = useQuery(trpc.products.get.queryOptions({ id }));
  const remove = useMutation(
    trpc.products.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
        router.push("/admin/products");
      },
    }),
  );

  if (query.error) return <ProblemAlert problem={problemFrom(query.error)} />;
  const product = query.data;
  if (!product) return <p className="muted">Loading…</p>;
  const readOnly = product.isDeleted || product.isLocked;

  return (
    <>
      <div className="crumbs">
        <Link href="/admin/products">Products</Link> /
      </div>
      <div className="detail-head">
        <div>
          <h1>{product.name}</h1>
          <div className="chips">
            <code>
              {product.productCode}
              {product.productVersion ? ` ${product.productVersion}` : ""}
            </code>
            <StatusBadge status={product.status} />
            {product.isLocked ? <span className="badge">locked</span> : null}
            {product.isDeleted ? <span className="badge badge-muted">deleted</span> : null}
            {product.tags.map((t) => (
              <span key={t} className="badge">
                {t}
              </span>
            ))}
          </div>
        </div>
        {product.isDeleted ? null : (
          <span className="row-actions">
            <button type="button" className="btn" onClick={() => setEditing(true)}>
              Edit
            </button>
            <button
              type="button"
              className="btn btn-danger-ghost"
              onClick={() => {
                remove.reset();
                setDeleting(true);
              }}
            >
              Delete
            </button>
          </span>
        )}
      </div>

      <Tabs
        label="Product"
        tabs={[
          {
            id: "overview",
            label: "Overview",
            render: () => (
              <>
                <section className="panel" aria-label="Details">
                  <dl className="facts">
                    <div>
                      <dt>Description</dt>
                      <dd>{product.description || <span className="muted">—</span>}</dd>
                    </div>
                    <div>
                      <dt>Expiration date</dt>
                      <dd>{formatDate(product.expirationDate)}</dd>
                    </div>
                    <div>
                      <dt>External id</dt>
                      <dd>{product.externalId ?? <span className="muted">—</span>}</dd>
                    </div>
                    <div>
                      <dt>Application scopes</dt>
                      <dd>{product.applicationScopes.join(", ") || <span className="muted">—</span>}</dd>
                    </div>
                    <div>
                      <dt>Parent product</dt>
                      <dd>
                        {product.parentProductId ? (
                          <Link href={`/admin/products/${product.parentProductId}`}>open</Link>
                        ) : (
                          <span className="muted">—</span>
                        )}
                      </dd>
                    </div>
                    <div>
                      <dt>Revision</dt>
                      <dd>
                        {product.revisionNumber} · {formatDateTime(product.updatedAt)}
                      </dd>
                    </div>
                  </dl>
                </section>

                <ProductFeatures product={product} readOnly={readOnly} />
                <ProductProperties product={product} readOnly={readOnly} />
                <ProductAssets product={product} readOnly={readOnly} />
              </>
            ),
          },
          { id: "history", label: "History", render: () => <AuditHistory entityId={product.id} /> },
        ]}
      />

      {editing ? <ProductFormDialog product={product} onClose={() => setEditing(false)} /> : null}
      <ConfirmDialog
        open={deleting}
        title={`Delete product “${product.name}”?`}
        confirmLabel="Delete product"
        danger
        busy={remove.isPending}
        problem={problemFrom(remove.error)}
        onCancel={() => setDeleting(false)}
        onConfirm={() => remove.mutate({ id })}
      >
        <ReferencedBy counts={product.referencedBy} />
        <p className="muted small">
          Entitlements, offers, suites and plan sets that refer to the product keep it from being deleted. A
          deleted product stays readable; its code and version become free.
        </p>
      </ConfirmDialog>
    </>
  );
}
