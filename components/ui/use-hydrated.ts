"use client";

import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * False in the server's HTML and until React has hydrated it, true after: for controls whose
 * action is JavaScript (a form that must not fall back to a native submit, a click that would be
 * lost while the page's script is still loading on a slow machine).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
