// What the document store's refusals say (Deckhand's error body): read back from its YAML or JSON so
// that the orchestrator's own error gives each of the store's messages once, not the body's text.
import { parse as parseYaml } from 'yaml'

/**
 * A refusal's body read back (Deckhand's error body, YAML or JSON): its message and each entry of its message list,
 * so that a caller gives each once instead of the body's text.
 */
export function readRefusal (body: string): { message: string, entries: Array<Record<string, unknown> & { message: string }> } {
  let parsed: unknown
  try {
    parsed = parseYaml(body, { maxAliasCount: 100 })
  } catch {
    parsed = undefined
  }
  const shaped = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { message?: unknown, details?: { messageList?: unknown } }
  const list = Array.isArray(shaped.details?.messageList) ? shaped.details.messageList as unknown[] : []
  const entries = list
    .filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null)
    .map(({ error: _error, ...entry }) => ({ ...entry, message: String(entry.message ?? '').trim() }))
  const message = typeof shaped.message === 'string' ? shaped.message.trim() : body.trim().split('\n')[0] ?? ''
  return { message, entries }
}
