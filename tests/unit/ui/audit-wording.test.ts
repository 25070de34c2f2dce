import { describe, expect, it } from "vitest";
import { plainAction } from "@/components/audit/audit-wording";

const row = (operation: string, changes: Record<string, { from?: unknown; to?: unknown }> | null) => ({
  source: "trpc" as const,
  actorKind: "user" as const,
  actorLabel: "admin@example.com",
  operation,
  action: "entitlement.updated",
  changes,
});

describe("plainAction", () => {
  it("says a renewal from the entitlement page, the list's bulk extend and REST alike with the new end", () => {
    const end = {
      expirationDateTime: { from: "2027-03-01T12:00:00+00:00", to: "2027-12-12T12:00:00+00:00" },
    };
    expect(plainAction(row("entitlements.renew", end))).toBe("Renewed until 12 Dec 2027");
    expect(plainAction(row("entitlements.renewMany", end))).toBe("Renewed until 12 Dec 2027");
    expect(plainAction(row("POST /operational/entitlements/{id}/renew", end))).toBe(
      "Renewed until 12 Dec 2027",
    );
  });

  it("names changed fields of any other update", () => {
    expect(plainAction(row("products.update", { description: { from: "a", to: "b" } }))).toBe(
      "Changed description",
    );
    expect(
      plainAction(
        row("entitlements.update", {
          name: { from: "a", to: "b" },
          featureOverrides: { from: null, to: { SEATS: "5" } },
          revisionNumber: { from: 1, to: 2 },
        }),
      ),
    ).toBe("Changed name, feature overrides");
  });
});
