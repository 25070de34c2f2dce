import { z } from "zod";

/** docs/api.md "User.*": the role that makes a user a license consumer (the sample payload's spelling). */
export const LICENSE_CONSUMER_ROLE = "LicenseConsumer";
export const customerUserTypes = ["Consumer", "Device"] as const;

/** `admin`, `self-service`, `privacy`, or the scheme of a connected system (e.g. `hubspot`). */
const ZOrigin = z
  .string()
  .trim()
  .regex(
    /^[a-z][a-z0-9+.-]{0,49}$/,
    "origin is admin, self-service, privacy or a connected system's scheme.",
  );
const text = (max: number) => z.string().trim().max(max);

const userFields = {
  email: z.string().trim().email().max(320).nullable(),
  firstName: text(200).nullable(),
  lastName: text(200).nullable(),
  externalReference: text(200).nullable(),
  userType: z.enum(customerUserTypes),
  roles: z.array(z.string().trim().min(1).max(100)).max(50),
  organizationIds: z.array(z.string().uuid()).max(100),
  isApproved: z.boolean(),
  isBlocked: z.boolean(),
  /** The portal account (a consumer User) this customer signs in as, if any. */
  userId: z.string().uuid().nullable(),
};

export const ZCustomerUserCreateRequest = z.object({
  email: userFields.email.default(null),
  firstName: userFields.firstName.default(null),
  lastName: userFields.lastName.default(null),
  externalReference: userFields.externalReference.default(null),
  userType: userFields.userType.default("Consumer"),
  roles: userFields.roles.default([LICENSE_CONSUMER_ROLE]),
  organizationIds: userFields.organizationIds.default([]),
  isApproved: userFields.isApproved.default(true),
  isBlocked: userFields.isBlocked.default(false),
  userId: userFields.userId.default(null),
  origin: ZOrigin.default("admin"),
  /** A registering user's anonymous try: it converts to the entitlement its offer issues on registration. */
  anonymousTryId: z.string().uuid().nullable().default(null),
});
export type TCustomerUserCreateRequest = z.infer<typeof ZCustomerUserCreateRequest>;

/** Merge-PATCH: absent fields stay; nullable text fields are cleared with null. */
export const ZCustomerUserUpdateRequest = z.object({
  email: userFields.email.optional(),
  firstName: userFields.firstName.optional(),
  lastName: userFields.lastName.optional(),
  externalReference: userFields.externalReference.optional(),
  userType: userFields.userType.optional(),
  roles: userFields.roles.optional(),
  organizationIds: userFields.organizationIds.optional(),
  isApproved: userFields.isApproved.optional(),
  isBlocked: userFields.isBlocked.optional(),
  userId: userFields.userId.optional(),
  origin: ZOrigin.default("admin"),
});
export type TCustomerUserUpdateRequest = z.infer<typeof ZCustomerUserUpdateRequest>;

export const ZCustomerUserResponse = z.object({
  id: z.string().uuid(),
  email: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  externalReference: z.string().nullable(),
  origin: z.string(),
  userType: z.enum(customerUserTypes),
  roles: z.array(z.string()),
  organizationIds: z.array(z.string().uuid()),
  isApproved: z.boolean(),
  isBlocked: z.boolean(),
  userId: z.string().uuid().nullable(),
  /** Whether docs/api.md's `User.*` events describe this user (a customer: see docs/decisions.md). */
  isCustomer: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TCustomerUserResponse = z.infer<typeof ZCustomerUserResponse>;

const invoiceDetails = z.record(z.string().max(100), z.string().max(2000)).nullable();

export const ZCustomerOrganizationCreateRequest = z.object({
  name: z.string().trim().min(1).max(200),
  externalReference: text(200).nullable().default(null),
  parentId: z.string().uuid().nullable().default(null),
  organizationType: text(50).min(1).default("Customer"),
  emailDomain: text(253).nullable().default(null),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, "country is an ISO 3166-1 alpha-2 code.")
    .nullable()
    .default(null),
  invoiceDetails: invoiceDetails.default(null),
  origin: ZOrigin.default("admin"),
});
export type TCustomerOrganizationCreateRequest = z.infer<typeof ZCustomerOrganizationCreateRequest>;

export const ZCustomerOrganizationUpdateRequest = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  externalReference: text(200).nullable().optional(),
  parentId: z.string().uuid().nullable().optional(),
  organizationType: text(50).min(1).optional(),
  emailDomain: text(253).nullable().optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .nullable()
    .optional(),
  invoiceDetails: invoiceDetails.optional(),
  origin: ZOrigin.default("admin"),
});
export type TCustomerOrganizationUpdateRequest = z.infer<typeof ZCustomerOrganizationUpdateRequest>;

export const ZCustomerOrganizationResponse = z.object({
  id: z.string().uuid(),
  name: z.string(),
  externalReference: z.string().nullable(),
  origin: z.string(),
  parentId: z.string().uuid().nullable(),
  organizationType: z.string(),
  emailDomain: z.string().nullable(),
  country: z.string().nullable(),
  invoiceDetails: z.record(z.string(), z.string()).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TCustomerOrganizationResponse = z.infer<typeof ZCustomerOrganizationResponse>;

export const ZCustomerIdParams = z.object({ id: z.string().uuid() });
