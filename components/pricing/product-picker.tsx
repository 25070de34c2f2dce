"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../shell/trpc-provider";
import { useDebounced } from "../ui/use-debounced";

export type ProductOption = { id: string; productCode: string; productVersion: string; name: string };

export const productLabel = (p: {
  name: string | null;
  productCode: string | null;
  productVersion?: string | null;
}) =>
  `${p.name ?? "Unknown product"} (${p.productCode ?? "?"}${p.productVersion ? ` ${p.productVersion}` : ""})`;

/** Search live products and pick one; `exclude` hides products already chosen. */
export function ProductPicker({
  id,
  label = "Product",
  exclude = [],
  onPick,
  buttonLabel = "Add",
}: {
  id: string;
  label?: string;
  exclude?: readonly string[];
  onPick: (product: ProductOption) => void;
  buttonLabel?: string;
}) {
  const trpc = useTRPC();
  const [term, setTerm] = useState("");
  // The chosen product itself, not its id: a search still loading must not turn "Add" into a no-op.
  const [chosen, setChosen] = useState<ProductOption | null>(null);
  const search = useDebounced(term.trim());
  const options = useQuery({
    ...trpc.suites.productOptions.queryOptions({ term: search }),
    placeholderData: keepPreviousData,
  });
  const available = (options.data ?? []).filter((p) => !exclude.includes(p.id));
  const shown = chosen && !available.some((p) => p.id === chosen.id) ? [chosen, ...available] : available;
  const pick = () => {
    if (chosen) {
      onPick(chosen);
      setChosen(null);
    }
  };
  return (
    <div className="inline-add">
      <input
        type="search"
        aria-label={`Search ${label.toLowerCase()}s`}
        placeholder="Search products…"
        value={term}
        onChange={(e) => setTerm(e.target.value)}
        style={{ maxWidth: 220 }}
      />
      <select
        id={id}
        aria-label={label}
        value={chosen?.id ?? ""}
        onChange={(e) => setChosen(shown.find((p) => p.id === e.target.value) ?? null)}
      >
        <option value="">
          {options.isLoading ? "Loading…" : available.length ? "Choose a product" : "No product to add"}
        </option>
        {shown.map((p) => (
          <option key={p.id} value={p.id}>
            {productLabel(p)}
          </option>
        ))}
      </select>
      <button type="button" className="btn btn-small" disabled={!chosen} onClick={pick}>
        {buttonLabel}
      </button>
    </div>
  );
}
