// The steps about the design and the action: health checks, the rendered design, its validations in the store and
// by the bootstrap service, the action's revision tag, and the deployment status the stack has nowhere to write.
import type { StepName } from '../schemas/steps.ts'
import { skipped, type Step } from './steps-context.ts'
import { actionOf, designRevision, siteActionTag, StepFailure } from './steps-conf.ts'

type DesignStep = Extract<StepName,
  'preflight' | 'rendered_doc' | 'deckhand_validate' | 'promenade_validate' | 'create_action_tag' | 'deployment_status'>

export const DESIGN_STEPS: Record<DesignStep, Step> = {
  async preflight (ctx) {
    const { store, bootstrap } = ctx.targets
    if (store === null) skipped(ctx, 'store', 'the store health check')
    else { await store.health(ctx.call); ctx.log('store is healthy') }
    if (bootstrap === null) skipped(ctx, 'bootstrap', 'the bootstrap health check')
    else { await bootstrap.health(ctx.call); ctx.log('bootstrap is healthy') }
  },

  async rendered_doc (ctx) {
    const revision = designRevision(ctx.conf)
    if (revision === null) { ctx.log('No design_ref in conf: nothing to retrieve', 'warning'); return }
    const store = ctx.targets.store
    if (store === null) { skipped(ctx, 'store', `retrieving revision ${revision}`); return }
    const documents = await store.renderedDocuments(revision, ctx.call)
    ctx.log(`Retrieved ${documents.length} rendered documents of revision ${revision}`)
  },

  async deckhand_validate (ctx) {
    const revision = designRevision(ctx.conf)
    if (revision === null) { ctx.log('No design_ref in conf: nothing to validate', 'warning'); return }
    const store = ctx.targets.store
    if (store === null) { skipped(ctx, 'store', `the validations of revision ${revision}`); return }
    const results = await store.validations(revision, ctx.call)
    const failed = results.filter((r) => r.status.toLowerCase() === 'failure')
    if (failed.length > 0) throw new StepFailure(`Site design validation failed in the store: ${failed.map((r) => r.name).join(', ')}`)
    ctx.log(`Revision ${revision}: ${results.length} validation(s), none failed`)
  },

  async promenade_validate (ctx) {
    const href = ctx.conf.design_ref
    if (typeof href !== 'string') { ctx.log('No design_ref in conf: nothing to validate', 'warning'); return }
    const bootstrap = ctx.targets.bootstrap
    if (bootstrap === null) { skipped(ctx, 'bootstrap', 'validatedesign'); return }
    const result = await bootstrap.validateDesign(href, ctx.call)
    if (!result.valid) throw new StepFailure(`Bootstrap design validation failed: ${result.messages.join('; ') || 'no message'}`)
    ctx.log('Bootstrap design validation succeeded')
  },

  async create_action_tag (ctx) {
    const tag = siteActionTag(ctx.taskStates)
    // the revision the action was started on; an action without one tags the revision its design names
    const committed = actionOf(ctx.conf).committed_rev_id
    const revision = typeof committed === 'number' ? committed : designRevision(ctx.conf)
    if (revision === null) { ctx.log(`No revision in conf: tag ${tag} not written`, 'warning'); return }
    const store = ctx.targets.store
    if (store === null) { skipped(ctx, 'store', `tagging revision ${revision} ${tag}`); return }
    await store.tagRevision(revision, tag, ctx.call)
    ctx.log(`Revision ${revision} tagged ${tag}`)
  },

  async deployment_status (ctx) {
    const final = ctx.taskId === 'final_deployment_status'
    const deploymentState = final ? 'completed' : 'running'
    ctx.log(`No Kubernetes API for ConfigMaps in this stack: skipped writing deployment-status (status ${deploymentState})`, 'warning')
  }
}
