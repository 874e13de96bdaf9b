// Private: zod schemas for cost profile and registry files (edge validation only).
import { z } from "zod";
import { SEVERITIES } from "./severity.ts";

const cost = z.number({ error: "must be a number" }).refine(Number.isFinite, {
  error: "must be finite",
}).refine((v) => v >= 0, { error: "must be >= 0" });

/** A cost slot: a bare number, or a number with its sourcing note. */
export const costSlotSchema = z.union([
  cost,
  z.object({
    value: cost,
    note: z.string().min(1, { error: "must be a non-empty note" }),
    sources: z.array(z.string()).optional(),
  }).strict(),
], { error: "must be a number >= 0 or {value, note, sources?}" });

export const sourceSchema = z.object({
  id: z.string().min(1),
  title: z.string().min(1),
  url: z.string().optional(),
  accessed: z.string().optional(),
  note: z.string().optional(),
}).strict();

export const profileFileSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_.-]+$/, {
    error: "must be letters, digits, _ . or -",
  }),
  version: z.string().min(1),
  description: z.string().optional(),
  currency: z.string().regex(/^[A-Z]{3}$/, {
    error: "must be an ISO 4217 code such as USD",
  }).nullable().optional(),
  unit: z.string().optional(),
  K: z.object({
    LOW: costSlotSchema,
    MEDIUM: costSlotSchema,
    HIGH: costSlotSchema,
    CRITICAL: costSlotSchema,
  }).strict(),
  reviewCost: costSlotSchema,
  judgeCost: costSlotSchema.optional(),
  sources: z.array(sourceSchema).default([]),
}).strict();

export type ProfileFile = z.infer<typeof profileFileSchema>;

export const registryFileSchema = z.object({
  version: z.string().min(1),
  description: z.string().optional(),
  sources: z.record(
    z.string(),
    z.object({
      title: z.string().min(1),
      url: z.string().optional(),
      accessed: z.string().optional(),
      note: z.string().optional(),
    }).strict(),
  ),
  entries: z.array(
    z.object({
      id: z.string().regex(/^[a-z0-9_]+$/, {
        error: "must be lower-case letters, digits or _",
      }),
      domain: z.string().min(1),
      low: cost,
      typical: cost,
      high: cost,
      unit: z.string().min(1),
      sources: z.array(z.string()).min(1, { error: "must name a source" }),
      confidence: z.enum(["low", "medium", "high"], {
        error: 'must be "low", "medium" or "high"',
      }),
      note: z.string().min(1),
    }).strict(),
  ),
}).strict();

export type RegistryFile = z.infer<typeof registryFileSchema>;

export const SEVERITY_LIST = SEVERITIES.join(", ");
