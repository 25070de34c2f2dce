"use client";

import { createContext, useContext } from "react";
import type { z } from "zod";

export type KitContext = {
  formId: string;
  schema: z.ZodType | undefined;
  /** Field name → label, filled by the fields so the summary can name them. */
  labels: Map<string, string>;
};

export const Kit = createContext<KitContext>({ formId: "form", schema: undefined, labels: new Map() });

export const useKit = () => useContext(Kit);

/** The id of a field's control: unique per form, stable for tests and the summary's links. */
export const controlId = (formId: string, name: string) => `${formId}-${name.replace(/\./g, "-")}`;
