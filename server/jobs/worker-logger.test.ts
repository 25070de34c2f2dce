import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { graphileLogger } from "./worker-logger.ts";

describe("worker logs", () => {
  it("say one line per job at info, with its task, id and duration, never the whole job record", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).trim().split("\n"));
        done();
      },
    });
    const log = pino({ level: "info" }, sink);
    const job = {
      id: "41",
      task_identifier: "webhook_sweep",
      payload: { some: "payload-of-the-job" },
      queue_name: null,
      last_error: "an old error with a stack",
      attempts: 1,
      max_attempts: 25,
    };
    const scoped = graphileLogger(log, () => false).scope({
      label: "job",
      taskIdentifier: job.task_identifier,
      jobId: job.id,
    });
    scoped.debug("Found task 41 (webhook_sweep)");
    scoped.info("Completed task 41 (webhook_sweep, 2.10ms) with success", {
      job,
      duration: 2.1,
      success: true,
    });

    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]);
    expect(line).toMatchObject({
      level: 30,
      msg: "Completed task 41 (webhook_sweep, 2.10ms) with success",
      taskIdentifier: "webhook_sweep",
      jobId: "41",
      duration: 2.1,
    });
    expect(line).not.toHaveProperty("job");
    expect(lines[0]).not.toContain("payload-of-the-job");
    expect(lines[0]).not.toContain("an old error");
  });
});
