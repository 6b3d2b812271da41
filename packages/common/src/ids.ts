// Identifiers: ULIDs for stored entities, UUIDs for requests and context markers.
import { randomUUID } from 'node:crypto'
import { monotonicFactory } from 'ulid'
import { Type } from 'typebox'

const ULID_PATTERN = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/
const UUID_PATTERN = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$/i

const nextUlid = monotonicFactory()

/** A new ULID (26 characters, Crockford base 32, monotonic within this process). */
export function newUlid (): string {
  return nextUlid()
}

/** True when `value` is a well-formed ULID (upper case, first character 0–7). */
export function isUlid (value: string): boolean {
  return ULID_PATTERN.test(value)
}

/** A new random UUID (version 4). */
export function newUuid (): string {
  return randomUUID()
}

/** True when `value` parses as a UUID, with or without hyphens (as Shipyard accepts a context marker). */
export function isUuid (value: string): boolean {
  return UUID_PATTERN.test(value)
}

/** Route schema for a ULID path parameter. */
export const UlidSchema = Type.String({ pattern: ULID_PATTERN.source, description: 'ULID' })
