// A design as the use cases need it: fetched from its reference by the design client, read within the bounds of
// work (design-yaml.ts), and, when it is a plain YAML file rather than the store's rendering, rendered here.
import type { DesignFetcher } from '../clients/design.ts'
import type { CallerContext, DesignDocument, DesignLimits } from '../types.ts'
import { prepareLocalDesign } from './documents.ts'
import { parseDesignYaml } from './design-yaml.ts'

export function createDesignSource (deps: { fetchDesign: DesignFetcher, limits: DesignLimits }) {
  return {
    /**
     * The documents behind `designRef`: a failed fetch is the store's DownstreamError, a refused reference or a
     * defect of the design a DesignError (a DesignYamlError for text that is not YAML).
     */
    async read (designRef: string, ctx: CallerContext, callerToken?: string): Promise<DesignDocument[]> {
      const fetched = await deps.fetchDesign(designRef, ctx, callerToken)
      const raw = await parseDesignYaml(fetched.text, deps.limits)
      // the store's rendering is layered and substituted already
      return fetched.rendered ? raw as DesignDocument[] : prepareLocalDesign(raw)
    }
  }
}

export type DesignSource = ReturnType<typeof createDesignSource>
