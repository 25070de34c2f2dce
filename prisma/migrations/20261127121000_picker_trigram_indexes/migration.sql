-- Issue 27 item 3: the back office's pickers and global search match names, references and emails
-- with ILIKE '%…%' (Sieve's `@=*`, server/domain/operations/search.ts), which no B-tree serves:
-- on a million licenses each keystroke read the tenant's whole table. Trigram GIN indexes serve
-- a contained match of three or more characters (docs/performance.md "Picker searches").
-- Expand only (docs/operations.md "Zero-downtime migrations"): new indexes, nothing dropped.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "Entitlement_name_trgm_idx" ON "Entitlement" USING GIN ("name" gin_trgm_ops);
CREATE INDEX "Entitlement_reference_trgm_idx" ON "Entitlement" USING GIN ("reference" gin_trgm_ops);
CREATE INDEX "Entitlement_externalReference_trgm_idx" ON "Entitlement" USING GIN ("externalReference" gin_trgm_ops);
CREATE INDEX "CustomerUser_email_trgm_idx" ON "CustomerUser" USING GIN ("email" gin_trgm_ops);
CREATE INDEX "CustomerUser_firstName_trgm_idx" ON "CustomerUser" USING GIN ("firstName" gin_trgm_ops);
CREATE INDEX "CustomerUser_lastName_trgm_idx" ON "CustomerUser" USING GIN ("lastName" gin_trgm_ops);
CREATE INDEX "CustomerOrganization_name_trgm_idx" ON "CustomerOrganization" USING GIN ("name" gin_trgm_ops);
