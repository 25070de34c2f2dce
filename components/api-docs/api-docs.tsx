"use client";

import { useMemo, useState } from "react";
import {
  authOf,
  groupOperations,
  typeOf,
  type JsonSchema,
  type OpenApiDocument,
  type OperationEntry,
  type ProblemCode,
} from "./types";
import "./api-docs.css";

/** A readable rendering of the OpenAPI document: operations by tag, with scopes, schemas and problems. */
export function ApiDocs({ doc }: { doc: OpenApiDocument }) {
  const [query, setQuery] = useState("");
  const groups = useMemo(() => groupOperations(doc), [doc]);
  const needle = query.trim().toLowerCase();
  const visible = groups
    .map((g) => ({
      ...g,
      operations: g.operations.filter(
        (o) =>
          !needle ||
          [o.method, o.path, o.op.summary ?? "", authOf(o.op), g.group].some((s) =>
            s.toLowerCase().includes(needle),
          ),
      ),
    }))
    .filter((g) => g.operations.length);
  const count = groups.reduce((n, g) => n + g.operations.length, 0);

  return (
    <div className="api-docs">
      <div className="toolbar">
        <input
          type="search"
          aria-label="Filter operations"
          placeholder="Filter by path, summary or scope…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <span className="muted small">
          {count} operations · OpenAPI {doc.openapi} · <a href="/api/v1/openapi.json">openapi.json</a>
        </span>
      </div>
      <nav className="api-index" aria-label="API groups">
        {visible.map((g) => (
          <a key={g.group} href={`#group-${slug(g.group)}`}>
            {g.group} <span className="muted">{g.operations.length}</span>
          </a>
        ))}
      </nav>
      {visible.length === 0 ? <p className="muted">No operation matches “{query}”.</p> : null}
      {visible.map((g) => (
        <section key={g.group} id={`group-${slug(g.group)}`} className="api-group">
          <h2>{g.group}</h2>
          {g.operations.map((o) => (
            <OperationView key={o.id} entry={o} doc={doc} />
          ))}
        </section>
      ))}
      {doc["x-problem-catalog"]?.length ? <ProblemCatalog codes={doc["x-problem-catalog"]} /> : null}
    </div>
  );
}

/** Text with `backtick` spans shown as code, as OpenAPI summaries write them. */
function Prose({ text }: { text?: string }) {
  if (!text) return null;
  return (
    <>
      {text
        .split(/(`[^`]+`)/)
        .map((part, i) =>
          part.startsWith("`") && part.endsWith("`") && part.length > 1 ? (
            <code key={i}>{part.slice(1, -1)}</code>
          ) : (
            part
          ),
        )}
    </>
  );
}

function slug(text: string) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

function OperationView({ entry, doc }: { entry: OperationEntry; doc: OpenApiDocument }) {
  const { method, path, op } = entry;
  const responses = Object.entries(op.responses ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const problems = responses.flatMap(([status, r]) =>
    (r["x-problem-codes"] ?? []).map((p) => ({ ...p, status: Number(status) })),
  );
  const parameters = op.parameters ?? [];
  return (
    <details className="api-op" id={entry.id} data-method={method} data-path={path}>
      <summary>
        <span className={`method method-${method}`}>{method.toUpperCase()}</span>
        <code className="api-path">{path}</code>
        <span className="api-summary">
          <Prose text={op.summary} />
        </span>
      </summary>
      <div className="api-op-body">
        {op.description ? (
          <p>
            <Prose text={op.description} />
          </p>
        ) : null}
        <p className="api-meta">
          <span className="muted">Required scope</span> <code>{authOf(op)}</code>
        </p>

        {parameters.length ? (
          <>
            <h4>Parameters</h4>
            <table className="table table-compact">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>In</th>
                  <th>Type</th>
                  <th>Required</th>
                  <th>Description</th>
                </tr>
              </thead>
              <tbody>
                {parameters.map((p) => (
                  <tr key={`${p.in}-${p.name}`}>
                    <td>
                      <code>{p.name}</code>
                    </td>
                    <td>{p.in}</td>
                    <td className="mono small">{typeOf(p.schema)}</td>
                    <td>{p.required ? "yes" : "no"}</td>
                    <td>{p.description ?? (p.schema?.description as string | undefined) ?? ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        ) : null}

        {op.requestBody?.content ? (
          <>
            <h4>Request body</h4>
            {Object.entries(op.requestBody.content).map(([type, media]) => (
              <SchemaBlock key={type} label={type} schema={media.schema} doc={doc} />
            ))}
          </>
        ) : null}

        <h4>Responses</h4>
        <ul className="api-responses">
          {responses.map(([status, r]) => (
            <li key={status}>
              <span className={`status status-${status[0]}xx`}>{status}</span> {r.description}
              {r.content && !r["x-problem-codes"]
                ? Object.entries(r.content).map(([type, media]) => (
                    <SchemaBlock key={type} label={type} schema={media.schema} doc={doc} />
                  ))
                : null}
            </li>
          ))}
        </ul>

        {problems.length ? (
          <>
            <h4>Problem codes</h4>
            <table className="table table-compact">
              <thead>
                <tr>
                  <th>Status</th>
                  <th>codeName</th>
                  <th>code</th>
                  <th>Meaning</th>
                </tr>
              </thead>
              <tbody>
                {problems.map((p) => (
                  <tr key={p.codeName}>
                    <td>{p.status}</td>
                    <td>
                      <code>{p.codeName}</code>
                    </td>
                    <td>{p.code}</td>
                    <td>{p.title}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="muted small">
              Problems are answered as <code>application/problem+json</code>.
            </p>
          </>
        ) : null}
      </div>
    </details>
  );
}

/** A collapsible JSON view of a schema; a `$ref` to a component schema is shown resolved. */
function SchemaBlock({ label, schema, doc }: { label: string; schema?: JsonSchema; doc: OpenApiDocument }) {
  if (!schema) return null;
  const ref = typeof schema.$ref === "string" ? schema.$ref : null;
  const name = ref?.split("/").pop();
  const resolved = name ? (doc.components?.schemas?.[name] ?? schema) : schema;
  return (
    <details className="schema-block">
      <summary>
        <span className="muted">{label}</span>{" "}
        {name ? <code>{name}</code> : <span className="muted small">schema</span>}
      </summary>
      <pre className="json">{JSON.stringify(resolved, null, 2)}</pre>
    </details>
  );
}

function ProblemCatalog({ codes }: { codes: ProblemCode[] }) {
  return (
    <section className="api-group" id="problem-catalog">
      <h2>Problem catalog</h2>
      <p className="muted">Every error the API can answer, with its stable code.</p>
      <table className="table table-compact">
        <thead>
          <tr>
            <th>codeName</th>
            <th>code</th>
            <th>HTTP status</th>
            <th>Title</th>
          </tr>
        </thead>
        <tbody>
          {codes.map((c) => (
            <tr key={c.codeName}>
              <td>
                <code>{c.codeName}</code>
              </td>
              <td>{c.code}</td>
              <td>{c.status}</td>
              <td>{c.title}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
