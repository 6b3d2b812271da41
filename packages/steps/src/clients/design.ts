// What Drydock, Armada and Promenade share: `GET /health` and `POST /validatedesign` with a design reference,
// answered by a Status object whose details list validation messages. 200 and 400 are both answers; anything else
// is the peer failing.
import { DownstreamError, type CallContext, type HttpClient } from '@slipway/common'

export interface ValidationMessage { message: string, error: boolean, level: string, name?: string }

export interface DesignValidation {
  valid: boolean
  status: string
  messages: ValidationMessage[]
}

function messagesOf (body: Record<string, unknown>): ValidationMessage[] {
  const details = body.details as { messageList?: unknown } | undefined
  const list = Array.isArray(details?.messageList) ? details.messageList as Array<Record<string, unknown> | null> : []
  return list.map((m) => {
    const message: ValidationMessage = {
      message: String(m?.message ?? m?.diagnostic ?? JSON.stringify(m)),
      error: m?.error === true || String(m?.level ?? '').toLowerCase() === 'error',
      level: String(m?.level ?? (m?.error === true ? 'Error' : 'Info'))
    }
    if (typeof m?.name === 'string') message.name = m.name
    return message
  })
}

export function designPeer (http: HttpClient) {
  return {
    async health (ctx: CallContext): Promise<number> {
      return (await http.expectOk('GET', '/health', { ctx })).statusCode
    },

    async validateDesign (href: string, ctx: CallContext, timeoutMs?: number): Promise<DesignValidation> {
      const response = await http.request('POST', '/validatedesign', {
        ctx, timeoutMs, json: { rel: 'design', href, type: 'application/x-yaml' }
      })
      if (response.statusCode !== 200 && response.statusCode !== 400) {
        const text = response.text.slice(0, 300)
        throw new DownstreamError(http.component, `${http.component} answered POST /validatedesign with ${response.statusCode}: ${text}`,
          { upstreamStatus: response.statusCode })
      }
      const body = http.parseJson<Record<string, unknown> | null>(response, 'POST /validatedesign') ?? {}
      const status = String(body.status ?? (response.statusCode === 200 ? 'Success' : 'Failure'))
      const messages = messagesOf(body)
      const valid = response.statusCode === 200 && status.toLowerCase() === 'success' && !messages.some((m) => m.error)
      return { valid, status, messages }
    }
  }
}
export type DesignPeer = ReturnType<typeof designPeer>
