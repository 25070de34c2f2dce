import { z } from "zod";
import type { DomainContext } from "../context.ts";
import { findTenantActivationCode } from "../licensing/activation-codes/find-activation-code.ts";
import { fingerprintHash } from "../licensing/devices/fingerprint-hash.ts";

/**
 * The back office's global search (docs/decisions.md "Operations"): one box, the
 * tenant's records of five kinds, a few of each, grouped by kind. Every read goes through the
 * tenant-scoped client. Activation codes match as activation does (the code's own normalization:
 * separators, case, confusable letters); devices by name, by the SHA-256 hash of a fingerprint
 * typed in full, or by a hash prefix of at least 8 hex digits.
 */
export const ZSearchQuery = z.object({ q: z.string().trim().min(2).max(200) });

export const searchKinds = ["customer", "entitlement", "activationCode", "device", "product"] as const;

export const ZSearchHit = z.object({
  kind: z.enum(searchKinds),
  id: z.string(),
  title: z.string(),
  detail: z.string(),
  /** The back-office page that shows the record. */
  href: z.string(),
});
export const ZSearchResult = z.object({
  q: z.string(),
  groups: z.array(z.object({ kind: z.enum(searchKinds), hits: z.array(ZSearchHit) })),
});
export type TSearchHit = z.infer<typeof ZSearchHit>;
export type TSearchResult = z.infer<typeof ZSearchResult>;

const PER_KIND = 5;
const HEX_PREFIX = /^[0-9a-f]{8,64}$/i;

/** Customer 360's page of a customer user or organization. */
export const customerHref = (kind: string | null, id: string) =>
  `/admin/customers/${kind === "Organization" ? "organizations" : "users"}/${id}`;

const like = (q: string) => ({ contains: q, mode: "insensitive" as const });

export async function globalSearch(ctx: DomainContext, input: { q: string }): Promise<TSearchResult> {
  const q = input.q.trim();
  const hash = HEX_PREFIX.test(q) ? q.toLowerCase() : null;
  const [users, orgs, entitlements, code, devices, products] = await Promise.all([
    ctx.db.customerUser.findMany({
      where: {
        OR: [{ email: like(q) }, { firstName: like(q) }, { lastName: like(q) }, { externalReference: q }],
      },
      orderBy: [{ email: "asc" }, { id: "asc" }],
      take: PER_KIND,
    }),
    ctx.db.customerOrganization.findMany({
      where: { OR: [{ name: like(q) }, { emailDomain: like(q) }, { externalReference: q }] },
      orderBy: [{ name: "asc" }, { id: "asc" }],
      take: PER_KIND,
    }),
    ctx.db.entitlement.findMany({
      where: {
        status: { not: "Archived" },
        OR: [{ name: like(q) }, { reference: like(q) }, { externalReference: like(q) }, { licenseKey: q }],
      },
      orderBy: [{ name: "asc" }, { id: "asc" }],
      take: PER_KIND,
    }),
    findTenantActivationCode(ctx.db, q),
    ctx.db.device.findMany({
      where: {
        OR: [
          { deviceName: like(q) },
          { fingerprintHash: fingerprintHash(q) },
          ...(hash ? [{ fingerprintHash: { startsWith: hash } }] : []),
        ],
      },
      orderBy: [{ lastSeenAt: { sort: "desc", nulls: "last" } }, { id: "asc" }],
      take: PER_KIND,
    }),
    ctx.db.product.findMany({
      where: { isDeleted: false, OR: [{ productCode: like(q) }, { name: like(q) }] },
      orderBy: [{ productCode: "asc" }, { productVersion: "asc" }, { id: "asc" }],
      take: PER_KIND,
    }),
  ]);

  const customers: TSearchHit[] = [
    ...users.map((u) => ({
      kind: "customer" as const,
      id: u.id,
      title: [u.firstName, u.lastName].filter(Boolean).join(" ") || u.email || u.id,
      detail: `User${u.email ? ` · ${u.email}` : ""}`,
      href: customerHref("User", u.id),
    })),
    ...orgs.map((o) => ({
      kind: "customer" as const,
      id: o.id,
      title: o.name,
      detail: `Organization${o.emailDomain ? ` · ${o.emailDomain}` : ""}`,
      href: customerHref("Organization", o.id),
    })),
  ].slice(0, PER_KIND * 2);
  const entitlementHits: TSearchHit[] = entitlements.map((e) => ({
    kind: "entitlement",
    id: e.id,
    title: e.name,
    detail: [e.status, e.reference, e.externalReference].filter(Boolean).join(" · "),
    href: `/admin/entitlements/${e.id}`,
  }));
  const codeHits: TSearchHit[] = code
    ? [
        {
          kind: "activationCode",
          id: code.id,
          title: code.code,
          detail: `${code.status} · entitlement ${code.entitlementId.slice(0, 8)}`,
          href: `/admin/entitlements/${code.entitlementId}`,
        },
      ]
    : [];
  // A device opens its license's customer (customer 360) when the license has one.
  const owners = devices.length
    ? await ctx.db.entitlement.findMany({
        where: { id: { in: [...new Set(devices.map((d) => d.entitlementId))] } },
        select: { id: true, name: true, customerId: true, customerKind: true },
      })
    : [];
  const ownerOf = new Map(owners.map((o) => [o.id, o]));
  const deviceHits: TSearchHit[] = devices.map((d) => {
    const owner = ownerOf.get(d.entitlementId);
    return {
      kind: "device",
      id: d.id,
      title: d.deviceName ?? `Device ${d.fingerprintHash.slice(0, 12)}`,
      detail: [d.isBlocked ? "Blocked" : null, owner?.name, `fingerprint ${d.fingerprintHash.slice(0, 12)}…`]
        .filter(Boolean)
        .join(" · "),
      href: owner?.customerId
        ? customerHref(owner.customerKind, owner.customerId)
        : `/admin/entitlements/${d.entitlementId}`,
    };
  });
  const productHits: TSearchHit[] = products.map((p) => ({
    kind: "product",
    id: p.id,
    title: `${p.productCode}${p.productVersion ? `@${p.productVersion}` : ""}`,
    detail: p.name,
    href: `/admin/products/${p.id}`,
  }));
  const groups = [
    { kind: "customer" as const, hits: customers },
    { kind: "entitlement" as const, hits: entitlementHits },
    { kind: "activationCode" as const, hits: codeHits },
    { kind: "device" as const, hits: deviceHits },
    { kind: "product" as const, hits: productHits },
  ].filter((g) => g.hits.length > 0);
  return { q, groups };
}
