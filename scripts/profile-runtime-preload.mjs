// Preloaded into the web process by scripts/profile-runtime.ts (NODE_OPTIONS=--import): the first
// SIGUSR2 starts the V8 CPU profiler, the second stops it and writes PROFILE_OUT (--cpu-prof is not
// allowed in NODE_OPTIONS, and this keeps start-up and seeding out of the profile).
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";

const session = new Session();
session.connect();
let running = false;
process.on("SIGUSR2", () => {
  if (!running) {
    running = true;
    session.post("Profiler.enable", () => session.post("Profiler.start"));
    return;
  }
  session.post("Profiler.stop", (error, result) => {
    if (!error) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(result.profile));
    running = false;
  });
});
