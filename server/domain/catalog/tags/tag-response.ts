import type { TTagResponse } from "./tag.schemas.ts";

type TagRow = {
  id: string;
  scope: string;
  name: string;
  color: string | null;
  isDeleted: boolean;
  createdAt: Date;
  updatedAt: Date;
  revisionNumber: number;
  _count: { assignments: number };
};

/** Prisma `include` that brings the usage count along with a tag. */
export const tagInclude = { _count: { select: { assignments: true } } } as const;

export function toTagResponse(row: TagRow): TTagResponse {
  return {
    id: row.id,
    scope: row.scope,
    name: row.name,
    color: row.color,
    usageCount: row._count.assignments,
    isDeleted: row.isDeleted,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    revisionNumber: row.revisionNumber,
  };
}
