import type { Contract } from "../contract.ts";
import * as tags from "./tags.ts";

/** Every REST contract, for the OpenAPI document. A test proves each route file is listed. */
export const allContracts: Contract[] = [...Object.values(tags)];
