// Wire shapes of the workflow, site status and note routes (seed 000 §2.5–2.7, §4.12–4.14, §4.16).
import { Type, type TSchema } from 'typebox'
import type { Wording } from '@slipway/common'
import { QuerySchema } from './query.ts'

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

export const WorkflowsQuerySchema = QuerySchema({
  since: Type.Optional(Type.String({ description: 'ISO 8601 date/time in the past, or an ISO 8601 duration back from now; default 30 days' }))
})
export const WorkflowParamsSchema = Type.Object({ workflow_id: Type.String({ description: '<dag_id>__<YYYY-MM-DDTHH:MM:SS.ffffff>' }) })

/** A workflow (seed 000 §2.5). */
export const WorkflowSchema = Type.Object({
  workflow_id: Type.String(),
  dag_id: Type.String(),
  run_id: Type.String(),
  execution_date: Nullable(Type.String()),
  start_date: Nullable(Type.String()),
  end_date: Nullable(Type.String()),
  state: Nullable(Type.String()),
  external_trigger: Type.Boolean()
})
const WorkflowStepSchema = Type.Object({
  task_id: Type.String(),
  dag_id: Type.String(),
  execution_date: Nullable(Type.String()),
  start_date: Nullable(Type.String()),
  end_date: Nullable(Type.String()),
  duration: Nullable(Type.Number()),
  queued_dttm: Nullable(Type.String()),
  try_number: Type.Integer(),
  state: Nullable(Type.String()),
  operator: Nullable(Type.String())
})
export const WorkflowDetailSchema = Type.Intersect([
  WorkflowSchema,
  Type.Object({ steps: Type.Array(WorkflowStepSchema), sub_dags: Type.Array(WorkflowSchema) })
])

export const SITE_STATUS_FILTERS = ['nodes-provision-status', 'machines-power-state'] as const
export type SiteStatusFilter = (typeof SITE_STATUS_FILTERS)[number]
export const SiteStatusesQuerySchema = QuerySchema({
  filters: Type.Optional(Type.String({ description: `Comma separated: ${SITE_STATUS_FILTERS.join(', ')}; default all` }))
})
/** Seed 000 §2.6 keys, or Shipyard's nodes_provision_status / machines_powerstate when configured so. */
export const SiteStatusesSchema = Type.Record(Type.String(), Type.Array(Type.Object({ hostname: Type.String() })))

/** Crockford base 32 in either case: note ids are ULIDs, looked up in upper case. */
export const NoteParamsSchema = Type.Object({
  note_id: Type.String({
    pattern: '^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$',
    description: 'Note id (ULID)',
    'x-invalid': { message: 'Notes ID values are 26 character ULID values', reason: 'Invalid note_id: {value} in URL' } satisfies Wording
  })
})
export const NoteTextSchema = Type.String({ description: 'The text at the note\'s URL, as it is (text/plain)' })
