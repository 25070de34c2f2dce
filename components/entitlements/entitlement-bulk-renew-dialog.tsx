"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import {
  ZRenewalExtension,
  renewalPeriodUnits,
  type TEntitlementBulkRenewResult,
  type TRenewalExtension,
} from "@/server/domain/entitlements/entitlement/renewal.schemas";
import { extendedEnd } from "@/server/domain/entitlements/entitlement/renewal-extension";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../ui/problem";
import { plainDetail, problemSentence } from "../ui/form/messages";
import { formatDate } from "../ui/format";

/** A selected entitlement as the list shows it. */
export type SelectedEntitlement = {
  id: string;
  name: string;
  status: string;
  expirationDateTime: string | null;
};

type Outcome = TEntitlementBulkRenewResult["results"][number];

const unitLabels: Record<(typeof renewalPeriodUnits)[number], string> = {
  days: "days",
  months: "months",
  years: "years",
};

/** The refusal of one row in plain words: the catalogue's sentence, and the server's detail when plain. */
function refusalText(refusal: NonNullable<Outcome["refusal"]>): string {
  const detail = plainDetail(refusal);
  const sentence = problemSentence(refusal);
  return detail ? `${sentence} ${detail}` : sentence;
}

const plural = (n: number) => `${n} entitlement${n === 1 ? "" : "s"}`;

/**
 * "Extend selected" on the entitlements list: one confirmation with the new end (a day, or a
 * period from each one's own end) previewed per row, then each row's outcome: extended, already
 * there, or refused and why. Each row is renewed as the entitlement page's Renew does.
 */
export function EntitlementBulkRenewDialog({
  entitlements,
  onClose,
  onDone,
}: {
  entitlements: SelectedEntitlement[];
  onClose: () => void;
  /** After the call: the rows that were extended (the list clears them from the selection). */
  onDone: (renewedIds: string[]) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<TRenewalExtension["kind"]>("by");
  const [count, setCount] = useState("1");
  const [unit, setUnit] = useState<(typeof renewalPeriodUnits)[number]>("years");
  const [date, setDate] = useState("");
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
  const renew = useMutation(
    trpc.entitlements.renewMany.mutationOptions({
      onSuccess: async (result) => {
        await queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.audit.pathKey() });
        onDone(result.results.filter((r) => r.outcome !== "Refused").map((r) => r.id));
      },
    }),
  );
  const problem = localProblem ?? problemFrom(renew.error);
  const extension = ZRenewalExtension.safeParse(
    kind === "until" ? { kind, date } : { kind, count: Number(count), unit },
  );
  const preview = (e: SelectedEntitlement) =>
    extension.success && e.expirationDateTime
      ? formatDate(extendedEnd(extension.data, new Date(e.expirationDateTime)).toISOString())
      : "—";

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    renew.reset();
    if (!extension.success) return setLocalProblem(validationProblem(extension.error.issues));
    renew.mutate({ ids: entitlements.map((e) => e.id), extension: extension.data });
  }

  const results = renew.data?.results;
  if (results) {
    const extended = results.filter((r) => r.outcome !== "Refused").length;
    return (
      <Dialog
        open
        wide
        title={`Extended ${extended} of ${plural(results.length)}`}
        onClose={onClose}
        footer={
          <button type="button" className="btn btn-primary" onClick={onClose}>
            Done
          </button>
        }
      >
        <div className="table-wrap">
          <table className="table table-compact" aria-label="Extension results">
            <thead>
              <tr>
                <th scope="col">Entitlement</th>
                <th scope="col">Outcome</th>
                <th scope="col">Ends</th>
              </tr>
            </thead>
            <tbody>
              {results.map((r) => (
                <tr key={r.id}>
                  <td>{r.name}</td>
                  <td>
                    {r.outcome === "Refused" ? (
                      <>
                        <span className="badge badge-danger">Refused</span>{" "}
                        <span className="small">{refusalText(r.refusal!)}</span>
                      </>
                    ) : r.outcome === "Renewed" ? (
                      <span className="badge badge-ok">Extended</span>
                    ) : (
                      <span className="badge badge-muted">Already ends then</span>
                    )}
                  </td>
                  <td className="nowrap">
                    {r.expirationDateTime ? formatDate(r.expirationDateTime) : "never"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      open
      wide
      title={`Extend ${plural(entitlements.length)}?`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={renew.isPending}>
            Cancel
          </button>
          <button type="submit" form="bulk-renew" className="btn btn-primary" disabled={renew.isPending}>
            {renew.isPending ? "Extending…" : `Extend ${plural(entitlements.length)}`}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problem} />
      <form id="bulk-renew" className="form" onSubmit={submit} noValidate>
        <div
          role="radiogroup"
          aria-label="New end"
          style={{ display: "flex", gap: "1.25rem", flexWrap: "wrap" }}
        >
          <label className="checkbox">
            <input
              type="radio"
              name="bulk-renew-kind"
              checked={kind === "by"}
              onChange={() => setKind("by")}
            />
            Extend each by a period from its current end
          </label>
          <label className="checkbox">
            <input
              type="radio"
              name="bulk-renew-kind"
              checked={kind === "until"}
              onChange={() => setKind("until")}
            />
            Set one end date for all
          </label>
        </div>
        {kind === "by" ? (
          <div className="grid-3">
            <Field
              label="Extend by"
              htmlFor="bulk-renew-count"
              error={fieldError(problem, "count", "Extend by")}
            >
              <input
                id="bulk-renew-count"
                type="number"
                min={1}
                max={120}
                value={count}
                onChange={(e) => setCount(e.target.value)}
              />
            </Field>
            <Field label="Unit" htmlFor="bulk-renew-unit">
              <select
                id="bulk-renew-unit"
                value={unit}
                onChange={(e) => setUnit(e.target.value as typeof unit)}
              >
                {renewalPeriodUnits.map((u) => (
                  <option key={u} value={u}>
                    {unitLabels[u]}
                  </option>
                ))}
              </select>
            </Field>
          </div>
        ) : (
          <Field
            label="New end date"
            htmlFor="bulk-renew-date"
            hint="Each keeps its current end's time of day. A renewal never moves an end earlier."
            error={fieldError(problem, "date", "New end date")}
          >
            <input id="bulk-renew-date" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
          </Field>
        )}
      </form>
      <div className="table-wrap">
        <table className="table table-compact" aria-label="Entitlements to extend">
          <thead>
            <tr>
              <th scope="col">Entitlement</th>
              <th scope="col">Ends now</th>
              <th scope="col">New end</th>
            </tr>
          </thead>
          <tbody>
            {entitlements.map((e) => (
              <tr key={e.id}>
                <td>
                  {e.name}
                  {e.status !== "Published" ? <span className="muted small"> · {e.status}</span> : null}
                </td>
                <td className="nowrap">
                  {e.expirationDateTime ? formatDate(e.expirationDateTime) : "never"}
                </td>
                <td className="nowrap">{preview(e)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small">
        Each is renewed on its own, as its page&apos;s Renew does; one that cannot be renewed is reported and
        the others still are.
      </p>
    </Dialog>
  );
}
