import { describe, expect, it } from "vitest";
import { withProgress } from "./progress-stream.ts";
import { AppError } from "../../../core/errors.ts";

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

describe("a long import streams its progress, then its result", () => {
  it("reports each new phase and ends with the result", async () => {
    const events = await collect(
      withProgress<{ section: string; n: number }, string>(
        async (onProgress) => {
          for (let n = 1; n <= 100; n++) onProgress({ section: n <= 50 ? "products" : "plans", n });
          await Promise.resolve();
          return "done";
        },
        { instance: "/test", phase: (p) => p.section, everyMs: 60_000 },
      ),
    );
    const last = events.at(-1);
    expect(last).toEqual({ type: "result", result: "done" });
    const progress = events.filter((e) => e.type === "progress");
    expect(progress.length).toBeLessThanOrEqual(2);
    expect(progress.length).toBeGreaterThanOrEqual(1);
  });

  it("a domain refusal ends the stream as a problem event", async () => {
    const events = await collect(
      withProgress(
        async () => {
          throw new AppError("catalog.import_too_large", "Too long.");
        },
        { instance: "/api/trpc/catalogTransfer.import" },
      ),
    );
    expect(events).toEqual([
      {
        type: "problem",
        problem: expect.objectContaining({
          codeName: "catalog.import_too_large",
          status: 413,
          detail: "Too long.",
        }),
      },
    ]);
  });

  it("anything else is a bug and is thrown", async () => {
    await expect(
      collect(
        withProgress(
          async () => {
            throw new Error("bug");
          },
          { instance: "/x" },
        ),
      ),
    ).rejects.toThrow("bug");
  });
});
