import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Logger, type Runner } from "graphile-worker";
import { Webhook } from "standardwebhooks";
import { runWorker } from "../server/jobs/run-worker.ts";
import { logger } from "../server/log.ts";
import { expect, open, screenshot, signIn, test } from "./support/fixtures.ts";
import type { E2eState } from "./support/state.ts";

// The e2e server runs no worker: this spec runs one (jobs and webhook dispatcher) on the e2e database.
let runner: Runner | undefined;
let receiver: Server | undefined;
let receiverSecret = "";
const received: { headers: Record<string, string>; body: string }[] = [];

async function startWorker(state: E2eState) {
  process.env.DATABASE_URL = state.databaseUrl;
  process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "1";
  runner = await runWorker({
    connectionString: state.databaseUrl,
    concurrency: 2,
    pollInterval: 200,
    logger: new Logger(() => () => {}),
    log: logger.child({}, { level: "silent" }),
  });
}

/** A local receiver that answers the registration challenge with the secret the UI showed. */
async function startReceiver(): Promise<string> {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = req.headers as Record<string, string>;
      received.push({ headers, body });
      if (headers["webhook-event-type"] !== "Webhooks.Registration.Challenge")
        return void res.writeHead(204).end();
      const answer = JSON.stringify({
        challenge: (JSON.parse(body) as { data: { challenge: string } }).data.challenge,
      });
      const signature = new Webhook(receiverSecret).sign(
        headers["webhook-id"],
        new Date(Number(headers["webhook-timestamp"]) * 1000),
        answer,
      );
      res.writeHead(200, { "content-type": "application/json", "webhook-signature": signature }).end(answer);
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
}

test.afterAll(async () => {
  await runner?.stop();
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
});

test("staff create a capture subscription, test-fire to it and see the event in the capture viewer", async ({
  page,
  state,
}) => {
  await startWorker(state);
  await signIn(page, "admin", state.staff);
  await page
    .getByRole("navigation", { name: "Back office" })
    .getByRole("link", { name: "Webhooks", exact: true })
    .click();
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await expect(page.getByText("No subscriptions yet.")).toBeVisible();

  await page.getByRole("button", { name: "New subscription" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Kind", { exact: true }).selectOption("Capture");
  await dialog.getByLabel("Display name").fill("Event inspector");
  await expect(dialog.getByLabel("Endpoint URL")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Create subscription" }).click();

  await expect(page.getByRole("heading", { name: "Event inspector", level: 1 })).toBeVisible();
  await expect(page.getByTestId("subscription-state")).toHaveText("Active");
  await expect(page.getByText("Nothing captured yet.")).toBeVisible();

  await page.getByRole("button", { name: "Test-fire" }).click();
  const fire = page.getByRole("dialog");
  await fire.getByLabel("Event type").selectOption("Entitlement.SeatActivated");
  await expect(fire.getByTestId("test-fire-preview")).toContainText('"type": "Entitlement.SeatActivated"');
  await expect(fire.getByTestId("test-fire-preview")).toContainText('"_test": true');
  await screenshot(page, "webhooks-test-fire-preview");
  await fire.getByRole("button", { name: "Send test event" }).click();
  await expect(fire.getByTestId("test-fire-sent")).toContainText("Entitlement.SeatActivated");
  await fire.getByRole("button", { name: "Close" }).first().click();

  const event = page.getByTestId("captured-event").first();
  await expect(event).toBeVisible({ timeout: 20_000 });
  await expect(event).toContainText("Entitlement.SeatActivated");
  await expect(event).toContainText("test");
  await event.locator("summary").click();
  await expect(event.locator("pre.json")).toContainText(
    '"sessionId": "00000000-0000-4000-8000-000000000004"',
  );
  await screenshot(page, "webhooks-capture-viewer");

  await page.getByRole("link", { name: "Webhooks" }).first().click();
  await expect(page.locator("table.table tbody tr").filter({ hasText: "Event inspector" })).toContainText(
    "Active",
  );
});

test("staff create an Http subscription, see its secret once, verify it and follow a test delivery's attempts", async ({
  page,
  state,
}) => {
  if (!runner) await startWorker(state);
  const url = await startReceiver();
  await signIn(page, "admin", state.staff);
  await open(page, "/admin/webhooks");

  await page.getByRole("button", { name: "New subscription" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Display name").fill("Billing backend");
  await dialog.getByLabel("Endpoint URL").fill(url);
  await dialog.getByLabel("All event types").uncheck();
  await dialog.getByLabel("User.Created").check();
  await dialog.getByLabel("Attribute equality").fill("origin=admin");
  await screenshot(page, "webhooks-create");
  await dialog.getByRole("button", { name: "Create subscription" }).click();

  await expect(dialog.getByText("shown once")).toBeVisible();
  receiverSecret = (await dialog.getByTestId("signing-secret").textContent())!.trim();
  expect(receiverSecret).toMatch(/^whsec_/);
  await screenshot(page, "webhooks-secret");
  await dialog.getByRole("button", { name: "I have stored it" }).click();

  await expect(page.getByRole("heading", { name: "Billing backend", level: 1 })).toBeVisible();
  await expect(page.getByTestId("subscription-state")).toHaveText("Pending verification");
  await expect(page.getByText(receiverSecret)).toHaveCount(0);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page.getByTestId("subscription-state")).toHaveText("Active");

  await page.getByRole("button", { name: "Test-fire" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByRole("dialog").getByTestId("test-fire-sent")).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).first().click();
  await expect
    .poll(() => received.filter((r) => r.headers["webhook-event-type"] === "User.Created").length, {
      timeout: 20_000,
    })
    .toBe(1);
  const delivery = received.find((r) => r.headers["webhook-event-type"] === "User.Created")!;
  expect(() => new Webhook(receiverSecret).verify(delivery.body, delivery.headers)).not.toThrow();

  const row = page.locator("table.table tbody tr").filter({ hasText: "User.Created" });
  await expect(async () => {
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(row).toContainText("succeeded", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await row.getByRole("button", { name: "Attempts" }).click();
  await expect(page.getByRole("dialog").getByTestId("attempts")).toContainText("204");
  await screenshot(page, "webhooks-delivery-attempts");
});

test("staff set the callback scopes an integrator client's subscriptions may request", async ({
  page,
  state,
}) => {
  await signIn(page, "admin", state.staff);
  await page
    .getByRole("navigation", { name: "Back office" })
    .getByRole("link", { name: "API clients" })
    .click();
  const integrator = page.locator("table.table tbody tr").filter({ hasText: "integrator" }).first();
  await integrator.getByRole("button", { name: /^Callback scopes/ }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("group", { name: "Allowed callback scopes" })).toBeVisible();
  await dialog.getByLabel("provision.tag.read").check();
  await dialog.getByLabel("provision.balance.read").check();
  await screenshot(page, "clients-callback-allowance");
  await dialog.getByRole("button", { name: "Save allowance" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(integrator.getByRole("button", { name: "Callback scopes (2)" })).toBeVisible();
});
