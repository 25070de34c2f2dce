"use client";

import { createTRPCClient, httpBatchStreamLink } from "@trpc/client";
import Link from "next/link";
import { useState, type DragEvent } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { sectionLabels, type SectionName } from "@/server/domain/portability/snapshot/sections";
import {
  conflictModes,
  ZCatalogImportBody,
  type TCatalogImportBody,
  type TCatalogImportResult,
  type TConflictMode,
} from "@/server/domain/portability/snapshot/snapshot.schemas";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom, validationProblem, type ProblemJson } from "../ui/problem";
import { ProgressBar } from "./progress-bar";
import { SnapshotSummary } from "./snapshot-summary";
import { applicable, ImportReport, itemKey } from "./import-report";

const modeHelp: Record<TConflictMode, string> = {
  CreateOrUpdate: "Create what this tenant lacks, update what it has (matched by natural key).",
  CreateOnly: "Only create what this tenant lacks; records it has stay as they are.",
  UpdateOnly: "Only update records this tenant has; nothing new is created.",
};

type Progress = {
  section: SectionName;
  sectionProcessed: number;
  sectionTotal: number;
  processed: number;
  total: number;
};
type Phase =
  | { kind: "idle" }
  | { kind: "reading"; loaded: number; total: number }
  | { kind: "running"; dryRun: boolean; progress: Progress | null };

/**
 * The import page: upload a catalog file, run it as a dry run (a report per section and per item,
 * with what differs), choose the conflict mode and the items, then apply. Progress streams from
 * the server while it works.
 */
export function ImportWizard() {
  // The import streams its progress, which the app's batching link would hold back until the end.
  const [client] = useState(() =>
    createTRPCClient<AppRouter>({ links: [httpBatchStreamLink({ url: "/api/trpc" })] }),
  );
  const [fileName, setFileName] = useState<string | null>(null);
  const [snapshot, setSnapshot] = useState<TCatalogImportBody | null>(null);
  const [conflictMode, setConflictMode] = useState<TConflictMode>("CreateOrUpdate");
  const [compare, setCompare] = useState(true);
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const [problem, setProblem] = useState<ProblemJson | null>(null);
  const [dryRun, setDryRun] = useState<TCatalogImportResult | null>(null);
  const [applied, setApplied] = useState<TCatalogImportResult | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dragging, setDragging] = useState(false);

  const reset = () => {
    setDryRun(null);
    setApplied(null);
    setProblem(null);
  };

  const readFile = (file: File) => {
    reset();
    setSnapshot(null);
    setFileName(file.name);
    const reader = new FileReader();
    reader.onprogress = (e) => setPhase({ kind: "reading", loaded: e.loaded, total: e.total || file.size });
    reader.onerror = () => {
      setPhase({ kind: "idle" });
      setProblem({
        title: "The file cannot be read",
        status: 0,
        detail: String(reader.error?.message ?? ""),
      });
    };
    reader.onload = () => {
      setPhase({ kind: "idle" });
      let json: unknown;
      try {
        json = JSON.parse(String(reader.result));
      } catch {
        return setProblem({
          title: "Not a catalog file",
          status: 400,
          codeName: "license.validation_error",
          detail: `${file.name} is not JSON.`,
        });
      }
      const parsed = ZCatalogImportBody.safeParse(json);
      if (!parsed.success) return setProblem(validationProblem(parsed.error.issues));
      setSnapshot(parsed.data);
    };
    reader.readAsText(file);
  };

  const run = async (asDryRun: boolean) => {
    if (!snapshot) return;
    setProblem(null);
    if (asDryRun) setApplied(null);
    setPhase({ kind: "running", dryRun: asDryRun, progress: null });
    const all =
      dryRun?.sections.flatMap((s) => s.items.filter(applicable).map((i) => itemKey(s.section, i.key))) ?? [];
    const subset = !asDryRun && dryRun && all.some((k) => !selected.has(k));
    const apply = subset
      ? Object.fromEntries(
          dryRun!.sections.map((s) => [
            s.section,
            [
              ...new Set(
                s.items
                  .filter((i) => applicable(i) && selected.has(itemKey(s.section, i.key)))
                  .map((i) => i.key),
              ),
            ],
          ]),
        )
      : undefined;
    try {
      const stream = await client.catalogTransfer.import.mutate({
        snapshot: { ...snapshot, apply },
        dryRun: asDryRun,
        conflictMode,
        compare: asDryRun ? compare : false,
      });
      for await (const event of stream) {
        if (event.type === "progress")
          setPhase({ kind: "running", dryRun: asDryRun, progress: event.progress });
        else if (event.type === "problem") setProblem(event.problem as ProblemJson);
        else {
          // Over the wire `unknown` fields read as optional; the result is the domain's.
          const result = event.result as TCatalogImportResult;
          if (!asDryRun) setApplied(result);
          else {
            setDryRun(result);
            setSelected(
              new Set(
                result.sections.flatMap((s) =>
                  s.items.filter(applicable).map((i) => itemKey(s.section, i.key)),
                ),
              ),
            );
          }
        }
      }
    } catch (error) {
      setProblem(problemFrom(error));
    } finally {
      setPhase({ kind: "idle" });
    }
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file) readFile(file);
  };

  const running = phase.kind === "running";
  const selectable = dryRun?.sections.flatMap((s) => s.items.filter(applicable)).length ?? 0;
  const chosen = dryRun
    ? dryRun.sections.flatMap((s) =>
        s.items.filter((i) => applicable(i) && selected.has(itemKey(s.section, i.key))),
      ).length
    : 0;
  return (
    <div className="transfer">
      <section className="panel" aria-labelledby="import-file">
        <h2 id="import-file">
          <span className="step-number">1</span>File
        </h2>
        <div
          className={`drop-zone${dragging ? " dragging" : ""}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <p>Drop a catalog file exported from this or another tenant here, or choose one.</p>
          <input
            type="file"
            accept="application/json,.json"
            aria-label="Catalog file"
            disabled={running}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) readFile(file);
            }}
          />
        </div>
        {phase.kind === "reading" ? (
          <ProgressBar
            label={`Reading ${fileName}`}
            done={phase.loaded}
            total={phase.total}
            detail={`${(phase.loaded / 1024 / 1024).toFixed(1)} of ${(phase.total / 1024 / 1024).toFixed(1)} MiB`}
          />
        ) : null}
        {snapshot ? (
          <SnapshotSummary
            snapshot={{
              ...snapshot,
              counts: Object.fromEntries(
                Object.entries(snapshot.sections ?? {}).map(([s, items]) => [
                  s,
                  Array.isArray(items) ? items.length : 0,
                ]),
              ),
            }}
            title={fileName ?? "The file"}
          />
        ) : null}
      </section>

      {snapshot ? (
        <section className="panel" aria-labelledby="import-options">
          <h2 id="import-options">
            <span className="step-number">2</span>Dry run
          </h2>
          <div className="form-row">
            <label>
              Conflict mode{" "}
              <select
                aria-label="Conflict mode"
                value={conflictMode}
                disabled={running}
                onChange={(e) => {
                  setConflictMode(e.target.value as TConflictMode);
                  reset();
                }}
              >
                {conflictModes.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
            </label>
            <span className="muted small">{modeHelp[conflictMode]}</span>
          </div>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={compare}
              disabled={running}
              onChange={(e) => setCompare(e.target.checked)}
            />
            Compare with this tenant (the fields that differ, and what only this tenant has)
          </label>
          <p className="muted small">
            A dry run makes the whole import and rolls it back: the report says exactly what applying would
            do, including what this tenant&apos;s rules refuse. Nothing is ever removed, and an existing
            product&apos;s features and monitored assets are never overwritten.
          </p>
          <div className="actions">
            <button type="button" className="btn btn-primary" disabled={running} onClick={() => run(true)}>
              Run dry run
            </button>
          </div>
        </section>
      ) : null}

      {running ? (
        <ProgressBar
          label={`${phase.dryRun ? "Dry run" : "Import"}${phase.progress ? `: ${sectionLabels[phase.progress.section]} ${phase.progress.sectionProcessed} of ${phase.progress.sectionTotal}` : ": starting…"}`}
          done={phase.progress?.processed}
          total={phase.progress?.total}
          detail={phase.progress ? `${phase.progress.processed} of ${phase.progress.total} items` : undefined}
        />
      ) : null}
      <ProblemAlert problem={problem} onDismiss={() => setProblem(null)} />

      {dryRun && !applied ? (
        <section className="panel" aria-labelledby="import-report">
          <h2 id="import-report">
            <span className="step-number">3</span>Dry-run report and apply
          </h2>
          <ImportReport result={dryRun} selected={selected} onSelect={setSelected} />
          <div className="actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={running || chosen === 0}
              onClick={() => run(false)}
            >
              Apply {chosen === selectable ? "all" : `${chosen} of ${selectable}`} items ({conflictMode})
            </button>
            <span className="muted small">Items left unchecked are skipped.</span>
          </div>
        </section>
      ) : null}

      {applied ? (
        <section className="panel" aria-labelledby="import-applied">
          <h2 id="import-applied">Applied</h2>
          <p>
            The import is done. <Link href="/admin/products">Open products</Link> ·{" "}
            <Link href="/admin/feature-catalog">Feature catalog</Link> ·{" "}
            <Link href="/admin/plan-sets">Plan sets</Link>
          </p>
          <ImportReport result={applied} />
        </section>
      ) : null}
    </div>
  );
}
