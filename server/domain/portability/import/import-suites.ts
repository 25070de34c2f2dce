import type { TenantTx } from "../../../db/tenant-db.ts";
import { createSuite } from "../../pricing/suites/create-suite.ts";
import { updateSuite } from "../../pricing/suites/update-suite.ts";
import { setSuiteMembers } from "../../pricing/suites/set-suite-members.ts";
import { ensureImplicitSuite } from "../../pricing/suites/implicit-suite.ts";
import {
  ZSuiteCreateRequest,
  ZSuiteMembersRequest,
  ZSuiteUpdateRequest,
} from "../../pricing/suites/suite.schemas.ts";
import { deepEqual, mergeField } from "./comparison.ts";
import { parseDomainInput, type ImportRun } from "./import-run.ts";
import type { SectionImporter } from "./import-section.ts";
import type { TPortableSuite } from "../snapshot/snapshot-items.schemas.ts";

/** The file's members that exist in the target, in sell order, and notes for the others. */
async function resolveMembers(run: ImportRun, s: TPortableSuite, notes: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const m of [...s.members].sort((a, b) => a.sortOrder - b.sortOrder)) {
    const id = await run.resolve("Product", m.productId);
    if (id) ids.push(id);
    else notes.push(`Member ${run.sourceKeyOf(m.productId)} left out: it is not in the target.`);
  }
  return ids;
}

/**
 * Suites: matched by code; an implicit suite by the product it stands for (its code may differ
 * between tenants). An implicit suite is made the way pricing a product makes it
 * (ensureImplicitSuite); members are merged (the file's sell order, then the target's other
 * members: members leave a suite only through DELETE, with its plan-set rules).
 */
export const suitesImporter: SectionImporter<"suites"> = {
  section: "suites",
  refKinds: ["Product"],
  fields: {
    name: { kind: "value" },
    description: { kind: "value" },
    members: { kind: "list", key: String },
  },
  comparable: (s, keyOf) => ({
    name: s.name,
    description: s.description,
    members: [...s.members].sort((a, b) => a.sortOrder - b.sortOrder).map((m) => keyOf(m.productId)),
  }),

  async match(run, entry) {
    const s = entry.item!;
    if (s.isImplicit && s.implicitProductId) {
      const productId = await run.resolve("Product", s.implicitProductId);
      if (!productId) return null;
      const suite = await run.db.suite.findFirst({
        where: { implicitProductId: productId },
        select: { id: true },
      });
      return suite ? { id: suite.id, naturalKey: entry.naturalKey } : null;
    }
    return (await run.index.find("Suite", { code: s.code }))[0] ?? null;
  },

  async create(run, ctx, s) {
    const notes: string[] = [];
    const implicitProduct = s.isImplicit ? await run.resolve("Product", s.implicitProductId) : null;
    if (implicitProduct) {
      const id = await ensureImplicitSuite(ctx.db as TenantTx, ctx.tenantId, implicitProduct);
      const made = await ctx.db.suite.findUniqueOrThrow({ where: { id } });
      if (made.name !== s.name || made.description !== s.description)
        await updateSuite(
          ctx,
          id,
          parseDomainInput(ZSuiteUpdateRequest, { name: s.name, description: s.description }),
        );
      if (made.code !== s.code)
        notes.push(`Implicit suite made with code ${made.code} (${s.code} is taken).`);
      return { id, notes };
    }
    if (s.isImplicit)
      notes.push("Created as an explicit suite: the product it stood for is not in the target.");
    const memberProductIds = await resolveMembers(run, s, notes);
    const suite = await createSuite(
      ctx,
      parseDomainInput(ZSuiteCreateRequest, {
        code: s.code,
        name: s.name,
        description: s.description,
        memberProductIds,
      }),
    );
    return { id: suite.id, notes };
  },

  async update(run, ctx, s, { id, current }) {
    const notes: string[] = [];
    let applied = false;
    if (s.name !== current.name || s.description !== current.description) {
      await updateSuite(
        ctx,
        id,
        parseDomainInput(ZSuiteUpdateRequest, { name: s.name, description: s.description }),
      );
      applied = true;
    }
    const currentOrder = [...current.members]
      .sort((a, b) => a.sortOrder - b.sortOrder)
      .map((m) => m.productId);
    const merged = mergeField(
      { kind: "list", key: String },
      currentOrder,
      await resolveMembers(run, s, notes),
    ) as string[];
    if (!deepEqual(merged, currentOrder)) {
      await setSuiteMembers(ctx, id, parseDomainInput(ZSuiteMembersRequest, { productIds: merged }));
      applied = true;
    }
    return { notes, nothingApplied: !applied };
  },
};
