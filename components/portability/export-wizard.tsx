"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { sectionLabels, sectionNames, type SectionName } from "@/server/domain/portability/snapshot/sections";
import {
  selectsSomething,
  ZCatalogExportRequest,
  type TCatalogSnapshot,
} from "@/server/domain/portability/snapshot/snapshot.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom, validationProblem, type ProblemJson } from "../ui/problem";
import { ItemPicker } from "./item-picker";
import { ProgressBar } from "./progress-bar";
import { SnapshotSummary } from "./snapshot-summary";
import { downloadJson } from "./download";

type Mode = "None" | "All" | "Ids";
const modeLabels: Record<Mode, string> = { None: "Nothing", All: "Everything", Ids: "Chosen items" };

const emptySelection = () =>
  Object.fromEntries(
    sectionNames.map((s) => [s, { mode: "None" as Mode, ids: new Map<string, string>() }]),
  ) as Record<SectionName, { mode: Mode; ids: Map<string, string> }>;

/**
 * The export wizard: what to export per section (everything, chosen items or nothing), whether to
 * include what the selection depends on, a preview of the snapshot (items per section, references,
 * warnings), and the file to download.
 */
export function ExportWizard() {
  const trpc = useTRPC();
  const [selection, setSelection] = useState(emptySelection);
  const [includeDependencies, setIncludeDependencies] = useState(true);
  const [clientProblem, setClientProblem] = useState<ProblemJson | null>(null);
  const run = useMutation(trpc.catalogTransfer.export.mutationOptions());

  const setSection = (section: SectionName, next: Partial<{ mode: Mode; ids: Map<string, string> }>) => {
    setSelection((current) => ({ ...current, [section]: { ...current[section], ...next } }));
    run.reset();
  };

  const preview = () => {
    setClientProblem(null);
    const parsed = ZCatalogExportRequest.safeParse({
      ...Object.fromEntries(
        sectionNames.map((s) => [
          s,
          selection[s].mode === "Ids"
            ? { mode: "Ids", ids: [...selection[s].ids.keys()] }
            : { mode: selection[s].mode },
        ]),
      ),
      includeDependencies,
    });
    if (!parsed.success) return setClientProblem(validationProblem(parsed.error.issues));
    if (!selectsSomething(parsed.data))
      return setClientProblem({
        title: "The export selects nothing",
        status: 400,
        codeName: "catalog.empty_selection",
        detail: "Choose Everything or some items in at least one section.",
      });
    run.mutate(parsed.data);
  };

  const snapshot = run.data as TCatalogSnapshot | undefined;
  const picking = sectionNames.filter((s) => selection[s].mode === "Ids");
  return (
    <div className="transfer">
      <section className="panel" aria-labelledby="export-sections">
        <h2 id="export-sections">
          <span className="step-number">1</span>Sections
        </h2>
        <div className="table-wrap">
          <table className="table table-compact">
            <thead>
              <tr>
                <th scope="col">Section</th>
                <th scope="col">Export</th>
                <th scope="col" className="num">
                  Chosen
                </th>
              </tr>
            </thead>
            <tbody>
              {sectionNames.map((section) => (
                <tr key={section}>
                  <td>{sectionLabels[section]}</td>
                  <td>
                    <select
                      aria-label={`Export of ${sectionLabels[section]}`}
                      value={selection[section].mode}
                      onChange={(e) => setSection(section, { mode: e.target.value as Mode })}
                    >
                      {(Object.keys(modeLabels) as Mode[]).map((m) => (
                        <option key={m} value={m}>
                          {modeLabels[m]}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td className="num">
                    {selection[section].mode === "Ids"
                      ? selection[section].ids.size
                      : selection[section].mode === "All"
                        ? "all"
                        : "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={includeDependencies}
            onChange={(e) => {
              setIncludeDependencies(e.target.checked);
              run.reset();
            }}
          />
          Include what the selection depends on
        </label>
        <p className="muted small">
          On: an add-on brings its suite and plan sets, a plan set its suite, products and catalog entries, a
          product its catalog entries, an asset its product, an offer its products and plan set. Off: exactly
          what is chosen; the importer then finds the rest by natural key in the target.
        </p>
      </section>

      {picking.length ? (
        <section className="panel" aria-labelledby="export-items">
          <h2 id="export-items">
            <span className="step-number">2</span>Items
          </h2>
          {picking.map((section) => (
            <ItemPicker
              key={section}
              section={section}
              label={sectionLabels[section]}
              chosen={selection[section].ids}
              onChange={(ids) => setSection(section, { ids })}
            />
          ))}
        </section>
      ) : null}

      <section className="panel" aria-labelledby="export-preview">
        <h2 id="export-preview">
          <span className="step-number">{picking.length ? 3 : 2}</span>Preview and download
        </h2>
        <ProblemAlert problem={clientProblem ?? problemFrom(run.error)} />
        <div className="actions">
          <button type="button" className="btn btn-primary" onClick={preview} disabled={run.isPending}>
            {snapshot ? "Export again" : "Preview export"}
          </button>
          {snapshot ? (
            <button
              type="button"
              className="btn"
              onClick={() =>
                downloadJson(
                  `catalog-${snapshot.exportedAt.slice(0, 19).replace(/[:T]/g, "-")}.json`,
                  snapshot,
                )
              }
            >
              Download file
            </button>
          ) : null}
        </div>
        {run.isPending ? <ProgressBar label="Exporting the catalog…" /> : null}
        {snapshot ? <SnapshotSummary snapshot={snapshot} title="This export" /> : null}
      </section>
    </div>
  );
}
