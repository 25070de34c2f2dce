-- Component matching (issue 11 item 6): a device's re-keys are recorded, and its stored
-- components are indexed rows so activation looks devices up by component instead of scanning.
ALTER TABLE "Device" ADD COLUMN "fingerprintHistory" JSONB;

-- CreateTable
CREATE TABLE "DeviceComponent" (
    "tenantId" UUID NOT NULL,
    "entitlementId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "valueHash" TEXT NOT NULL,
    "deviceId" UUID NOT NULL,

    CONSTRAINT "DeviceComponent_pkey" PRIMARY KEY ("tenantId","entitlementId","name","valueHash","deviceId")
);

-- CreateIndex
CREATE INDEX "DeviceComponent_deviceId_idx" ON "DeviceComponent"("deviceId");

-- AddForeignKey
ALTER TABLE "DeviceComponent" ADD CONSTRAINT "DeviceComponent_deviceId_fkey" FOREIGN KEY ("deviceId") REFERENCES "Device"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The components devices already stored.
INSERT INTO "DeviceComponent" ("tenantId", "entitlementId", "name", "valueHash", "deviceId")
SELECT d."tenantId", d."entitlementId", c.key, c.value, d.id
FROM "Device" d CROSS JOIN LATERAL jsonb_each_text(d.components) c
WHERE jsonb_typeof(d.components) = 'object'
ON CONFLICT DO NOTHING;
