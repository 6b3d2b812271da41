// The free ports handed out for 0 (the stack's, a real peer's): free, never the same twice, and outside the range the system hands
// out to outgoing connections (which would take one before its process listens, on a busy machine).
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { freePort, portRefusal } from '../src/ports.ts'

describe('freePort', () => {
  it('hands out distinct free ports outside the system\'s own range', async () => {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number) as [number, number]
    const ports: number[] = []
    for (let i = 0; i < 100; i++) ports.push(await freePort('127.0.0.1'))
    expect(new Set(ports).size).toBe(100)
    expect(ports.filter((port) => port >= low && port <= high)).toEqual([])
    expect(ports.filter((port) => port < 1024 || port > 65535)).toEqual([])
    for (const port of ports.slice(0, 10)) expect(await portRefusal('127.0.0.1', port)).toBeUndefined()
  })
})
