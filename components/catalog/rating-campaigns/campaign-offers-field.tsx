"use client";

import { useController } from "react-hook-form";
import { OfferPicker } from "../../entitlements/pickers";
import { useTRPC } from "../../shell/trpc-provider";
import { useQueryClient } from "@tanstack/react-query";
import type { CampaignOffer } from "./campaign-values";

/** The offers whose customers a campaign asks, each picked by name; none asks every customer. */
export function CampaignOffersField() {
  const { field } = useController({ name: "offers" });
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const offers = (field.value as CampaignOffer[] | undefined) ?? [];
  const add = (offerId: string) => {
    if (!offerId || offers.some((o) => o.offerId === offerId)) return;
    // The picker has just listed it: its name is in the cache of the search it came from.
    const cached = queryClient
      .getQueriesData<{ items: { id: string; name: string; version: number }[] }>({
        queryKey: trpc.entitlements.offers.pathKey(),
      })
      .flatMap(([, page]) => page?.items ?? [])
      .find((o) => o.id === offerId);
    const name = cached ? `${cached.name} (version ${cached.version})` : "Offer";
    field.onChange([...offers, { offerId, name }]);
  };
  return (
    <fieldset className="form-section campaign-offers">
      <legend>Offers</legend>
      {offers.length ? (
        <ul className="chips" aria-label="Chosen offers" data-testid="campaign-offers">
          {offers.map((o) => (
            <li className="chip" key={o.offerId}>
              {o.name}
              <button
                type="button"
                className="btn-icon"
                aria-label={`Remove ${o.name}`}
                onClick={() => field.onChange(offers.filter((x) => x.offerId !== o.offerId))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <OfferPicker
        // A fresh picker after each choice: its search box starts empty again.
        key={offers.length}
        value=""
        onChange={add}
        label="Add an offer"
        exclude={offers.map((o) => o.offerId)}
      />
      <div className="field-hint">
        {offers.length
          ? "Only customers holding these offers are asked."
          : "None chosen: every customer is asked."}
      </div>
    </fieldset>
  );
}
