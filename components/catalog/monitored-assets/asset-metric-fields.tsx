"use client";

import { metricTypes } from "@/server/domain/catalog/monitored-assets/monitored-asset.schemas";
import { SelectField, TextField } from "../../ui/form";

const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/** The metric a monitored asset measures: its name as applications report it, its unit and tags. */
export function AssetMetricFields() {
  return (
    <section className="panel">
      <div className="panel-head">
        <h2>Metric</h2>
      </div>
      <div className="form-grid">
        <TextField
          name="metricName"
          label="Metric name"
          mono
          hint="Lowercase; the application reports under exactly this name."
        />
        <TextField name="name" label="Name" />
        <SelectField name="metricType" label="Metric type" options={options(metricTypes)} />
        <TextField name="unit" label="Unit" />
        <TextField name="category" label="Category" />
        <TextField name="numberFormat" label="Number format" />
        <TextField
          name="allowedBackDatingTolerance"
          label="Back-dating tolerance"
          mono
          placeholder="P7D"
          hint="ISO 8601 duration, e.g. P7D; blank = service default."
        />
        {/* No counter: the box holds a list, and the schema's limits are per tag. */}
        <TextField name="tags" label="Tags" hint="Comma-separated." schemaPath="-" />
      </div>
      <TextField name="description" label="Description" />
    </section>
  );
}
