// npm run test:build: the production build the test servers run, made now unless it is current,
// so that suites started side by side (scripts/test.ts) find it ready instead of building at once.
import { ensureBuild } from "./test-server.ts";

ensureBuild();
