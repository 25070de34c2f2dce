import { z } from "zod";

// Runs before the app's code in the browser. zod compiles object parsers with `new Function` when
// it may, and probes for that permission first: under the page CSP (no 'unsafe-eval', proxy.ts)
// the probe is a blocked eval the browser reports on every page. Parsing without it is the same.
z.config({ jitless: true });
