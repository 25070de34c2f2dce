import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable, isTransactionConflict, retryOnConflict } from "./errors.ts";

const conflict = (code: string) =>
  Object.assign(new Error("Transaction failed due to a write conflict or a deadlock"), { code });

describe("retryOnConflict", () => {
  it("runs a deadlock or serialization victim again until it commits", async () => {
    let calls = 0;
    const result = await retryOnConflict(async () => {
      calls++;
      if (calls < 3) throw conflict(calls === 1 ? "P2034" : "40P01");
      return "done";
    });
    expect(result).toBe("done");
    expect(calls).toBe(3);
  });

  it("never retries other errors", async () => {
    let calls = 0;
    await expect(
      retryOnConflict(async () => {
        calls++;
        throw Object.assign(new Error("unique"), { code: "P2002" });
      }),
    ).rejects.toThrow("unique");
    expect(calls).toBe(1);
  });

  it("gives up after the last attempt with the conflict itself", async () => {
    let calls = 0;
    await expect(
      retryOnConflict(async () => {
        calls++;
        throw conflict("40001");
      }, 3),
    ).rejects.toMatchObject({ code: "40001" });
    expect(calls).toBe(3);
  });

  it("recognises Prisma's and PostgreSQL's conflict codes only", () => {
    expect(["P2034", "40P01", "40001"].map((code) => isTransactionConflict({ code }))).toEqual([
      true,
      true,
      true,
    ]);
    expect(isTransactionConflict({ code: "P2002" })).toBe(false);
    expect(isTransactionConflict(null)).toBe(false);
  });
});

describe("isDatabaseUnavailable", () => {
  it("knows a raw query's dropped connection, which Prisma reports as P2010 with the reason in its message", () => {
    // As the webhook dispatcher saw it when PostgreSQL went away mid-query.
    const dropped = Object.assign(
      new Error(
        "Invalid `prisma.$queryRaw()` invocation:\n\n\nRaw query failed. Code: `N/A`. Message: `Server has closed the connection.`",
      ),
      { code: "P2010" },
    );
    expect(isDatabaseUnavailable(dropped)).toBe(true);
  });

  it("does not take a failed raw query for an outage", () => {
    const syntax = Object.assign(
      new Error(
        "Invalid `prisma.$queryRaw()` invocation:\n\n\nRaw query failed. Code: `42601`. Message: `syntax error`",
      ),
      { code: "P2010" },
    );
    expect(isDatabaseUnavailable(syntax)).toBe(false);
  });
});
