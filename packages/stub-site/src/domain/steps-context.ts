// What one step works with: the store and the bootstrap service as the steps use them, this site, the run's facts
// and a log. Shared by the step files, which each import it; nothing here imports them back.
import type { CallContext } from '@slipway/common'
import type { StepLogLine } from '../schemas/steps.ts'
import type { Site } from './site.ts'

/** The document store, as the steps use it. */
export interface StepStore {
  health: (ctx: CallContext) => Promise<void>
  validations: (revision: number, ctx: CallContext) => Promise<Array<{ name: string, status: string }>>
  renderedDocuments: (revision: number, ctx: CallContext) => Promise<unknown[]>
  tagRevision: (revision: number, tag: string, ctx: CallContext) => Promise<void>
}

/** The bootstrap service, as the steps use it. */
export interface StepBootstrap {
  health: (ctx: CallContext) => Promise<void>
  validateDesign: (href: string, ctx: CallContext) => Promise<{ valid: boolean, messages: string[] }>
  putNodeLabels: (node: string, labels: Record<string, string>, ctx: CallContext) => Promise<void>
}

/** What the steps act on; null: not configured, and the step logs that it skipped that part. */
export interface StepTargets {
  site: Site
  store: StepStore | null
  bootstrap: StepBootstrap | null
}

export type StepLevel = StepLogLine['level']

export interface StepContext {
  dagId: string
  taskId: string
  conf: Record<string, unknown>
  taskStates: Readonly<Record<string, string | null>>
  /** Forwarded on every call to the store and the bootstrap service. */
  call: CallContext
  targets: StepTargets
  log: (event: string, level?: StepLevel) => void
}

export type Step = (ctx: StepContext) => Promise<void>

/** A part of a step that has no target: a warning line, and the step goes on without it. */
export function skipped (ctx: StepContext, target: 'store' | 'bootstrap', what: string): void {
  ctx.log(`No ${target} configured (${target.toUpperCase()}_URL empty or none): skipped ${what}`, 'warning')
}
