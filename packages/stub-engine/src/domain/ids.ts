// Task-instance ids as Airflow 3 makes them: UUID version 7, whose leading 48 bits are the creation time in
// milliseconds, so that ordering by id is ordering by creation. Airflow gives an instance a new id for every try
// (and when it is cleared), which is why a retried task lists after the tasks created with it.
import { randomBytes } from 'node:crypto'

let lastMs = 0
let sequence = 0

/**
 * A UUIDv7: 48 bits of milliseconds, the version, 12 bits that count ids made in the same millisecond (so ids
 * made one after another always sort in that order), the variant, then random bits.
 */
export function uuid7 (nowMs = Date.now()): string {
  if (nowMs > lastMs) {
    lastMs = nowMs
    sequence = 0
  } else if (++sequence > 0xfff) {
    // more than 4096 ids in one millisecond: borrow the next millisecond
    lastMs += 1
    sequence = 0
  }
  const bytes = randomBytes(16)
  bytes.writeUIntBE(lastMs, 0, 6)
  bytes[6] = 0x70 | (sequence >> 8)
  bytes[7] = sequence & 0xff
  bytes[8] = 0x80 | (bytes[8]! & 0x3f)
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
