"use client";

import { useEffect } from "react";

/**
 * Marks the document `data-hydrated` once React has hydrated the page: until then a click or a
 * typed value can be lost. The e2e tests wait for it after a full page load (e2e/support/fixtures.ts).
 */
export function HydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
