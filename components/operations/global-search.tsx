"use client";

import { useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../shell/trpc-provider";
import { useDebounced } from "../ui/use-debounced";
import "../dashboard/dashboard.css";

const kindLabels = {
  customer: "Customers",
  entitlement: "Entitlements",
  activationCode: "Activation codes",
  device: "Devices",
  product: "Products",
} as const;

/** Whether a key press lands in a text control (then "/" is typed, not a shortcut). */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/**
 * The back office's global search: "/" or Ctrl+K (⌘K) opens it anywhere in the console; results
 * are grouped by kind; arrows move, Enter opens, Escape closes.
 */
export function GlobalSearch() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const q = useDebounced(text.trim(), 200);
  const result = useQuery({
    ...trpc.operations.search.queryOptions({ q }),
    enabled: open && q.length >= 2,
    placeholderData: keepPreviousData,
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.key === "k" || e.key === "K") && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        setOpen(true);
      } else if (e.key === "/" && !typing(e.target) && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  const groups = q.length >= 2 ? (result.data?.groups ?? []) : [];
  const hits = groups.flatMap((g) => g.hits);
  // The hits answer what the box says (not a term typed before, still shown while the new one loads).
  const current = q.length >= 2 && q === text.trim() && result.isSuccess && !result.isPlaceholderData;

  const close = () => {
    setOpen(false);
    setText("");
    setActive(0);
  };
  const go = (href: string) => {
    close();
    router.push(href);
  };
  /** Enter before the hits answer the box: the first hit of what the box says, once it answers. */
  const openFirstHitOf = async (term: string) => {
    const answer = await queryClient.fetchQuery(trpc.operations.search.queryOptions({ q: term }));
    const first = answer.groups.flatMap((g) => g.hits)[0];
    // Still open (the search unmounts its box when closed) and still this term.
    if (first && input.current?.value.trim() === term) go(first.href);
  };

  return (
    <>
      <button type="button" className="search-trigger" onClick={() => setOpen(true)} aria-label="Search">
        Search customers, licenses, codes, devices… <kbd>/</kbd>
      </button>
      {open ? (
        <div className="search-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
          <div className="search-dialog" role="dialog" aria-modal="true" aria-label="Global search">
            <input
              ref={input}
              type="search"
              aria-label="Search the back office"
              placeholder="Name, email, reference, activation code, device, product code"
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setActive(0);
              }}
              onKeyDown={(e) => {
                if (e.key === "Escape") close();
                else if (e.key === "ArrowDown") {
                  e.preventDefault();
                  setActive((i) => Math.min(i + 1, Math.max(hits.length - 1, 0)));
                } else if (e.key === "ArrowUp") {
                  e.preventDefault();
                  setActive((i) => Math.max(i - 1, 0));
                } else if (e.key === "Enter") {
                  e.preventDefault();
                  if (current) {
                    if (hits[active]) go(hits[active].href);
                  } else if (text.trim().length >= 2) void openFirstHitOf(text.trim());
                }
              }}
            />
            {q.length < 2 ? (
              <p className="muted small">Type at least two characters. Esc closes.</p>
            ) : result.isFetching && !result.data ? (
              <p className="muted small">Searching…</p>
            ) : hits.length === 0 ? (
              <p className="muted small" data-testid="search-empty">
                Nothing matches “{q}”.
              </p>
            ) : (
              <div role="listbox" aria-label="Search results" aria-busy={!current || undefined}>
                {groups.map((g) => (
                  <div key={g.kind} className="search-group" data-testid={`search-group-${g.kind}`}>
                    <h3>{kindLabels[g.kind]}</h3>
                    {g.hits.map((h) => {
                      const index = hits.indexOf(h);
                      return (
                        <a
                          key={`${h.kind}:${h.id}`}
                          href={h.href}
                          role="option"
                          aria-selected={index === active}
                          className="search-hit"
                          onMouseEnter={() => setActive(index)}
                          onClick={(e) => {
                            e.preventDefault();
                            go(h.href);
                          }}
                        >
                          <span>{h.title}</span>
                          <span className="muted small">{h.detail}</span>
                        </a>
                      );
                    })}
                  </div>
                ))}
              </div>
            )}
          </div>
        </div>
      ) : null}
    </>
  );
}
