import { z } from "zod";

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** docs/api.md general conventions: 1-based pageNumber; pageSize capped at 100 silently. */
export const ZListQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(0)
    .default(DEFAULT_PAGE_SIZE)
    .transform((n) => Math.min(n, MAX_PAGE_SIZE)),
  filter: z.string().max(2000).optional(),
  sortOrder: z.string().max(500).optional(),
});
export type TListQuery = z.infer<typeof ZListQuery>;

export function ZPage<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    pageNumber: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
    totalPages: z.number().int(),
    hasNextPage: z.boolean(),
    hasPreviousPage: z.boolean(),
    /** Present (true) when the list stopped counting: there are at least totalCount items. */
    totalCountIsLowerBound: z.boolean().optional(),
  });
}

export type Page<T> = {
  items: T[];
  pageNumber: number;
  pageSize: number;
  totalCount: number;
  totalPages: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  totalCountIsLowerBound?: boolean;
};

export function pageEnvelope<T>(
  items: T[],
  query: Pick<TListQuery, "pageNumber" | "pageSize">,
  totalCount: number,
): Page<T> {
  const totalPages = query.pageSize > 0 ? Math.ceil(totalCount / query.pageSize) : 0;
  return {
    items,
    pageNumber: query.pageNumber,
    pageSize: query.pageSize,
    totalCount,
    totalPages,
    hasNextPage: query.pageNumber < totalPages,
    hasPreviousPage: query.pageNumber > 1,
  };
}

/** skip/take for Prisma; a page size of 0 reads nothing but still counts. */
export function pageWindow(query: Pick<TListQuery, "pageNumber" | "pageSize">) {
  return { skip: (query.pageNumber - 1) * query.pageSize, take: query.pageSize };
}
