-- The fleet Devices page's product filter finds the entitlements granting a product
-- ("productIds" @> ARRAY[id]); without an index that read every entitlement of the tenant.
-- A GIN index over the array serves containment: the product's id (a UUID, unique across tenants)
-- picks its few entitlements, and the tenant is checked on those rows.
-- Expand only (docs/operations.md "Zero-downtime migrations"): a new index, nothing dropped.
CREATE INDEX "Entitlement_productIds_idx" ON "Entitlement" USING GIN ("productIds");
