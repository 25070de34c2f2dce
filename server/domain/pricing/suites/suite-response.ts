import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { Prisma } from "../../../db/generated/client.ts";
import { productsByIds } from "../../catalog/pricing-lookups.ts";
import type { TSuiteResponse } from "./suite.schemas.ts";

/** Prisma `include` for a suite response: members in sell order and what the suite owns. */
export const suiteInclude = {
  members: { orderBy: [{ sortOrder: "asc" as const }, { createdAt: "asc" as const }] },
  _count: { select: { planSets: true, addOns: true } },
} satisfies Prisma.SuiteInclude;

type SuiteRow = {
  id: string;
  code: string;
  name: string;
  description: string;
  isImplicit: boolean;
  createdAt: Date;
  updatedAt: Date;
  members: { productId: string; sortOrder: number }[];
  _count: { planSets: number; addOns: number };
};

/** Responses for suite rows, with each member's product code and name read in one query. */
export async function toSuiteResponses(
  db: TenantDbOrTx,
  rows: readonly SuiteRow[],
): Promise<TSuiteResponse[]> {
  const products = await productsByIds(
    db,
    rows.flatMap((r) => r.members.map((m) => m.productId)),
  );
  return rows.map((row) => ({
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    isImplicit: row.isImplicit,
    members: row.members.map((m) => {
      const product = products.get(m.productId);
      return {
        productId: m.productId,
        productCode: product?.productCode ?? null,
        productVersion: product?.productVersion ?? null,
        productName: product?.name ?? null,
        sortOrder: m.sortOrder,
      };
    }),
    referencedBy: { planSets: row._count.planSets, addOns: row._count.addOns },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

export async function readSuite(db: TenantDbOrTx, id: string): Promise<TSuiteResponse | null> {
  const row = await db.suite.findUnique({ where: { id }, include: suiteInclude });
  return row ? (await toSuiteResponses(db, [row]))[0] : null;
}
