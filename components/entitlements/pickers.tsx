"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../shell/trpc-provider";
import { EntityPicker } from "../ui/entity-picker";
import { sieveValue } from "../ui/sieve";
import { useDebounced } from "../ui/use-debounced";
import { productLabel } from "../pricing/product-picker";

type PickerProps = {
  value: string;
  onChange: (id: string) => void;
  label?: string;
  hideLabel?: boolean;
};

const PICKER_SIZE = 10;

/**
 * What every picker here keeps: the typed term, its debounced and escaped form for the search
 * filter, and the label of the option picked last (so a picked row needs no lookup by id).
 */
function usePickerSearch() {
  const [term, setTerm] = useState("");
  const [chosen, setChosen] = useState<string | null>(null);
  const search = sieveValue(useDebounced(term.trim(), 250));
  const remember = (id: string, options: { id: string; label: string }[]) =>
    setChosen(id ? (options.find((o) => o.id === id)?.label ?? null) : null);
  return { term, setTerm, search, chosen, remember };
}

/** An entitlement, searched by name, reference or external reference. */
export function EntitlementPicker({ value, onChange, label = "Entitlement", hideLabel }: PickerProps) {
  const trpc = useTRPC();
  const { term, setTerm, search, chosen, remember } = usePickerSearch();
  const matches = useQuery({
    ...trpc.entitlements.list.queryOptions({
      pageNumber: 1,
      pageSize: PICKER_SIZE,
      filter: `name|reference|externalReference@=*${search}`,
      sortOrder: "name",
    }),
    enabled: search.length > 0 && !value,
  });
  const current = useQuery({
    ...trpc.entitlements.get.queryOptions({ id: value }),
    enabled: Boolean(value) && !chosen,
  });
  const options = (matches.data?.items ?? []).map((e) => ({
    id: e.id,
    label: e.name,
    hint: [e.reference, e.status].filter(Boolean).join(" · "),
  }));
  return (
    <EntityPicker
      label={label}
      hideLabel={hideLabel}
      placeholder="Search by name or reference…"
      value={value}
      selectedLabel={chosen ?? current.data?.name ?? null}
      term={term}
      onTerm={setTerm}
      loading={matches.isFetching}
      options={options}
      onChange={(id) => {
        remember(id, options);
        onChange(id);
      }}
    />
  );
}

/** A customer's user (by email or name): whose sessions or logins a list shows. */
export function CustomerUserPicker(props: PickerProps) {
  return <CustomerPicker {...props} usersOnly />;
}

type CustomerUserName = { email: string | null; firstName: string | null; lastName: string | null };
/** A customer user as lists name them: their full name, else their email. */
const userLabel = (u: CustomerUserName) =>
  [u.firstName, u.lastName].filter(Boolean).join(" ") || u.email || "unnamed user";

/** A customer (a user by email or name, or an organization by name), searched by either. */
export function CustomerPicker({
  value,
  onChange,
  label = "Customer",
  hideLabel,
  usersOnly,
}: PickerProps & { usersOnly?: boolean }) {
  const trpc = useTRPC();
  const { term, setTerm, search, chosen, remember } = usePickerSearch();
  const enabled = search.length > 0 && !value;
  const users = useQuery({
    ...trpc.customers.users.queryOptions({
      pageNumber: 1,
      pageSize: PICKER_SIZE,
      filter: `email|firstName|lastName@=*${search}`,
    }),
    enabled,
  });
  const orgs = useQuery({
    ...trpc.customers.organizations.queryOptions({
      pageNumber: 1,
      pageSize: PICKER_SIZE,
      filter: `name@=*${search}`,
    }),
    enabled: enabled && !usersOnly,
  });
  const byIdUser = useQuery({
    ...trpc.customers.users.queryOptions({ pageNumber: 1, pageSize: 1, filter: `id==${value}` }),
    enabled: Boolean(value) && !chosen,
  });
  const byIdOrg = useQuery({
    ...trpc.customers.organizations.queryOptions({ pageNumber: 1, pageSize: 1, filter: `id==${value}` }),
    enabled: Boolean(value) && !chosen && !usersOnly,
  });
  const options = [
    ...(orgs.data?.items ?? []).map((o) => ({ id: o.id, label: o.name, hint: "organization" })),
    // A user without a name is labelled by their email: the hint then says what it is, not the email again.
    ...(users.data?.items ?? []).map((u) => {
      const label = userLabel(u);
      return { id: u.id, label, hint: u.email && u.email !== label ? u.email : "user" };
    }),
  ];
  const known = byIdUser.data?.items[0]
    ? userLabel(byIdUser.data.items[0])
    : (byIdOrg.data?.items[0]?.name ?? null);
  return (
    <EntityPicker
      label={label}
      hideLabel={hideLabel}
      placeholder={usersOnly ? "Search users by name or email…" : "Search by name or email…"}
      value={value}
      selectedLabel={chosen ?? known}
      term={term}
      onTerm={setTerm}
      loading={users.isFetching || orgs.isFetching}
      options={options}
      onChange={(id) => {
        remember(id, options);
        onChange(id);
      }}
    />
  );
}

/** A product of the catalog, searched by name or product code; shown as "Name (CODE version)". */
export function ProductSearchPicker({ value, onChange, label = "Product", hideLabel }: PickerProps) {
  const trpc = useTRPC();
  const { term, setTerm, search, chosen, remember } = usePickerSearch();
  const matches = useQuery({
    ...trpc.products.list.queryOptions({
      pageNumber: 1,
      pageSize: PICKER_SIZE,
      filter: `name|productCode@=*${search}`,
    }),
    enabled: search.length > 0 && !value,
  });
  const current = useQuery({
    ...trpc.products.get.queryOptions({ id: value }),
    enabled: Boolean(value) && !chosen,
  });
  const options = (matches.data?.items ?? []).map((p) => ({
    id: p.id,
    label: productLabel(p),
    hint: p.status,
  }));
  return (
    <EntityPicker
      label={label}
      hideLabel={hideLabel}
      placeholder="Search by name or code…"
      value={value}
      selectedLabel={chosen ?? (current.data ? productLabel(current.data) : null)}
      term={term}
      onTerm={setTerm}
      loading={matches.isFetching}
      options={options}
      onChange={(id) => {
        remember(id, options);
        onChange(id);
      }}
    />
  );
}

/** An offer, searched by name; shown as "Name (version N)". `exclude` hides offers already chosen. */
export function OfferPicker({
  value,
  onChange,
  label = "Offer",
  hideLabel,
  exclude = [],
}: PickerProps & { exclude?: readonly string[] }) {
  const trpc = useTRPC();
  const { term, setTerm, search, chosen, remember } = usePickerSearch();
  const matches = useQuery({
    ...trpc.entitlements.offers.queryOptions({
      pageNumber: 1,
      pageSize: PICKER_SIZE,
      filter: `name@=*${search}`,
      sortOrder: "name",
    }),
    enabled: search.length > 0 && !value,
  });
  const current = useQuery({
    ...trpc.entitlements.offer.queryOptions({ id: value }),
    enabled: Boolean(value) && !chosen,
  });
  const offerLabel = (o: { name: string; version: number }) => `${o.name} (version ${o.version})`;
  const options = (matches.data?.items ?? [])
    .filter((o) => !exclude.includes(o.id))
    .map((o) => ({ id: o.id, label: offerLabel(o), hint: o.status }));
  return (
    <EntityPicker
      label={label}
      hideLabel={hideLabel}
      placeholder="Search offers by name…"
      value={value}
      selectedLabel={chosen ?? (current.data ? offerLabel(current.data) : null)}
      term={term}
      onTerm={setTerm}
      loading={matches.isFetching}
      options={options}
      onChange={(id) => {
        remember(id, options);
        onChange(id);
      }}
    />
  );
}

/** The names of the entitlements a page of rows refers to, by id (one query per page). */
export function useEntitlementNames(ids: string[]): Map<string, string> {
  const trpc = useTRPC();
  const unique = [...new Set(ids)].sort();
  const names = useQuery({
    ...trpc.entitlements.list.queryOptions({
      pageNumber: 1,
      pageSize: 100,
      filter: `id==${unique.join("|")}`,
    }),
    enabled: unique.length > 0 && unique.length <= 100,
  });
  return new Map((names.data?.items ?? []).map((e) => [e.id, e.name]));
}

/** The names of the customers (users and organizations) a page of rows refers to, by id. */
export function useCustomerNames(ids: (string | null)[]): Map<string, string> {
  const trpc = useTRPC();
  const unique = [...new Set(ids.filter((id): id is string => Boolean(id)))].sort();
  const query = { pageNumber: 1, pageSize: 100, filter: `id==${unique.join("|")}` };
  const enabled = unique.length > 0 && unique.length <= 100;
  const users = useQuery({ ...trpc.customers.users.queryOptions(query), enabled });
  const orgs = useQuery({ ...trpc.customers.organizations.queryOptions(query), enabled });
  return new Map([
    ...(orgs.data?.items ?? []).map((o) => [o.id, o.name] as const),
    ...(users.data?.items ?? []).map((u) => [u.id, userLabel(u)] as const),
  ]);
}
