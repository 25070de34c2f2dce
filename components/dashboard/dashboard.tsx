"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { MrrCard } from "./mrr-card";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatCountOf, formatDateTime } from "../ui/format";
import "./dashboard.css";

const percent = (v: number | null) => (v === null ? "—" : `${Math.round(v * 1000) / 10}%`);
const dayLabel = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const statusColors: Record<string, string> = {
  succeeded: "#2f855a",
  pending: "#b7791f",
  sending: "#3182ce",
  failed: "#c05621",
  dead: "#c53030",
};

/** A figure with the list it counts: the whole card opens it. */
function Figure({
  href,
  label,
  value,
  note,
  testId,
}: {
  href: string;
  label: string;
  value: string | number;
  note?: string;
  testId: string;
}) {
  return (
    <Link href={href} className="dash-figure" data-testid={testId}>
      <span className="dash-figure-value" data-testid={`${testId}-value`}>
        {value}
      </span>
      <span className="dash-figure-label">{label}</span>
      {note ? <span className="muted small">{note}</span> : null}
    </Link>
  );
}

/** The back office's home: the tenant's live figures, refreshed every 30 s. */
export function Dashboard() {
  const trpc = useTRPC();
  const q = useQuery({ ...trpc.operations.dashboard.queryOptions(), refetchInterval: 30_000 });
  if (q.error) return <ProblemAlert problem={problemFrom(q.error)} />;
  const d = q.data;
  if (!d) return <p className="muted">Loading figures…</p>;
  const chart = d.activationsPerDay.map((p) => ({
    name: dayLabel.format(new Date(`${p.day}T00:00:00Z`)),
    day: p.day,
    Activations: p.count,
  }));
  const webhookSlices = d.webhooks.byStatus.filter((s) => s.count > 0);
  return (
    <div className="dash" data-testid="dashboard">
      <div className="dash-figures">
        <Figure
          href="/admin/sessions"
          testId="dash-active-sessions"
          label="Active sessions"
          value={d.seats.activeSessions}
          note={`of ${formatCountOf(d.seats.seatsInForce, "seat")} on ${formatCountOf(d.seats.licensesInForce, "license")} in force`}
        />
        <Figure
          href="/admin/reports/seat-utilization"
          testId="dash-seat-utilization"
          label="Seat utilisation"
          value={percent(d.seats.utilization)}
          note="active sessions / seats in force"
        />
        <Figure
          href="/admin/entitlements?status=Published&expiringSoon=true"
          testId="dash-expiring"
          label="Licenses expiring in 30 days"
          value={d.expiring.count}
          note={d.expiring.soonest[0] ? `first: ${d.expiring.soonest[0].name}` : "none"}
        />
        <Figure
          href="/admin/entitlements?status=Published"
          testId="dash-trials"
          label="Trials in force"
          value={d.trials.active}
          note={`${d.trials.converted} of ${d.trials.issued} converted (${percent(d.trials.conversionRate)})`}
        />
        <Figure
          href="/admin/webhooks/deliveries"
          testId="dash-webhook-success"
          label="Webhook success, 7 days"
          value={percent(d.webhooks.successRate)}
          note={`${d.webhooks.succeeded} delivered, ${d.webhooks.failed} failed`}
        />
        <Figure
          href="/admin/webhooks/dead-letters"
          testId="dash-dead-letters"
          label="Dead letters"
          value={d.webhooks.deadLetters}
          note="deliveries that gave up; requeue them"
        />
      </div>

      <section className="panel" aria-label="Activations per day">
        <div className="dash-panel-head">
          <h2>Activations per day</h2>
          <span className="muted">
            <span data-testid="dash-activations-total">{d.activationsTotal}</span> in 30 days ·{" "}
            <Link href="/admin/reports/activations">report</Link>
          </span>
        </div>
        <div className="dash-chart" data-testid="dash-activations-chart">
          <ResponsiveContainer>
            <BarChart data={chart} margin={{ top: 8, right: 8, bottom: 4, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="name" tick={{ fontSize: 11 }} interval={4} />
              <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={36} />
              <Tooltip />
              <Bar dataKey="Activations" fill="var(--accent)" radius={[3, 3, 0, 0]} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </section>

      <MrrCard />

      <div className="dash-columns">
        <section className="panel" aria-label="Expiring licenses">
          <div className="dash-panel-head">
            <h2>Expiring soonest</h2>
            <Link href="/admin/entitlements?status=Published&expiringSoon=true">all {d.expiring.count}</Link>
          </div>
          {d.expiring.soonest.length === 0 ? (
            <p className="muted">No license expires in the next 30 days.</p>
          ) : (
            <ul className="dash-list">
              {d.expiring.soonest.map((e) => (
                <li key={e.id}>
                  <Link href={`/admin/entitlements/${e.id}`}>{e.name}</Link>
                  <span className="muted small">{formatDateTime(e.expiresAt)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section className="panel" aria-label="Webhook deliveries">
          <div className="dash-panel-head">
            <h2>Webhook deliveries, 7 days</h2>
            <Link href="/admin/webhooks/deliveries">deliveries</Link>
          </div>
          {webhookSlices.length === 0 ? (
            <p className="muted">No deliveries in the last 7 days.</p>
          ) : (
            <div className="dash-split">
              <div className="dash-pie" data-testid="dash-webhook-chart">
                <ResponsiveContainer>
                  <PieChart>
                    <Pie
                      data={webhookSlices}
                      dataKey="count"
                      nameKey="label"
                      innerRadius={34}
                      outerRadius={56}
                    >
                      {webhookSlices.map((s) => (
                        <Cell key={s.label} fill={statusColors[s.label] ?? "#718096"} />
                      ))}
                    </Pie>
                    <Tooltip />
                  </PieChart>
                </ResponsiveContainer>
              </div>
              <ul className="dash-list">
                {webhookSlices.map((s) => (
                  <li key={s.label}>
                    <Link
                      href={
                        s.label === "dead"
                          ? "/admin/webhooks/dead-letters"
                          : `/admin/webhooks/deliveries?status=${s.label}`
                      }
                    >
                      {s.label}
                    </Link>
                    <span>{s.count}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </section>

        <section className="panel" aria-label="Refusals by code">
          <div className="dash-panel-head">
            <h2>Refusals, 7 days</h2>
            <Link href="/admin/sessions?state=ended">ended sessions</Link>
          </div>
          {d.refusals.length === 0 ? (
            <p className="muted">No runtime call was refused in the last 7 days.</p>
          ) : (
            <ul className="dash-list" data-testid="dash-refusals">
              {d.refusals.map((r) => (
                <li key={`${r.operation}:${r.codeName}`}>
                  <span>
                    <code>{r.codeName}</code> <span className="muted small">{r.operation}</span>
                  </span>
                  <span>{r.count}</span>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section className="panel" aria-label="Usage and credit burn">
          <div className="dash-panel-head">
            <h2>Usage this period</h2>
            <Link href="/admin/meters">meters</Link>
          </div>
          {d.usage.length === 0 && d.creditBurn.length === 0 ? (
            <p className="muted">No metered usage yet.</p>
          ) : (
            <table className="table dash-table" data-testid="dash-usage">
              <thead>
                <tr>
                  <th>Metric</th>
                  <th>Usage</th>
                  <th>Credits charged</th>
                  <th>Licenses</th>
                </tr>
              </thead>
              <tbody>
                {d.usage.map((u) => (
                  <tr key={u.metricName}>
                    <td>
                      <code>{u.metricName}</code>
                    </td>
                    <td>{u.usage}</td>
                    <td>{u.creditsCharged}</td>
                    <td>{u.licenses}</td>
                  </tr>
                ))}
                {d.creditBurn.map((b) => (
                  <tr key={`burn:${b.metricName}`}>
                    <td>
                      <code>{b.metricName}</code> <span className="muted small">credits burned, 30 days</span>
                    </td>
                    <td colSpan={3}>{b.credits}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
      <p className="muted small">As of {formatDateTime(d.generatedAt)}; refreshed every 30 seconds.</p>
    </div>
  );
}
