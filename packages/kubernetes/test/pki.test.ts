import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fromKubeconfig } from '../../bootstrap/src/clients/kubernetes.ts'
import { newIdentities, writeKubeconfig, writePki, writeTokenFile } from '../src/pki.ts'

const dir = mkdtempSync(join(tmpdir(), 'slipway-kube-pki-'))
afterAll(() => { rmSync(dir, { recursive: true, force: true }) })

describe('the API server\'s files', () => {
  it('makes a CA and a serving certificate for 127.0.0.1 that it signed', async () => {
    const pki = await writePki(dir)
    const verify = execFileSync('openssl', ['verify', '-CAfile', pki.caCert, pki.serverCert], { encoding: 'utf8' })
    expect(verify.trim()).toBe(`${pki.serverCert}: OK`)
    const text = execFileSync('openssl', ['x509', '-in', pki.serverCert, '-noout', '-ext', 'subjectAltName'], { encoding: 'utf8' })
    expect(text).toContain('IP Address:127.0.0.1')
    expect(readFileSync(pki.serviceAccountKey, 'utf8')).toContain('BEGIN PRIVATE KEY')
  })

  it('writes the token file with the admin in system:masters and the other two in no group', () => {
    const ids = newIdentities()
    writeTokenFile(join(dir, 'tokens.csv'), ids)
    expect(readFileSync(join(dir, 'tokens.csv'), 'utf8').trim().split('\n')).toEqual([
      `${ids.admin.token},slipway-admin,uid-admin,"system:masters"`,
      `${ids.bootstrap.token},slipway-bootstrap,uid-bootstrap`,
      `${ids.nobody.token},slipway-nobody,uid-nobody`
    ])
    expect(new Set([ids.admin.token, ids.bootstrap.token, ids.nobody.token]).size).toBe(3)
  })

  it('writes a kubeconfig the bootstrap service reads: server, token, and the CA beside it by relative path', () => {
    const path = join(dir, 'kubeconfig.yaml')
    writeKubeconfig(path, { server: 'https://127.0.0.1:6443', caFile: 'ca.crt', token: 't0k', user: 'slipway-bootstrap' })
    const connection = fromKubeconfig(path)
    expect(connection.server).toBe('https://127.0.0.1:6443')
    expect(connection.token()).toBe('t0k')
    expect(connection.dispatcher).toBeDefined()
  })
})
