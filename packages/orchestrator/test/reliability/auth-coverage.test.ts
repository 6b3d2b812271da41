// Every route of the orchestrator, taken from its route table: no token, a bad token and an expired token → 401
// with WWW-Authenticate; a valid token without the role → 403. Public routes answer without a token.
import { describe, it } from 'vitest'
import { expectEveryRouteGuarded } from '@slipway/common/testing/auth-coverage'
import { buildTestApp } from '../helpers/test-app.ts'

describe('authentication and authorization on every orchestrator route', () => {
  it('guards every non-public route and leaves the public ones open', async () => {
    const { app } = await buildTestApp()
    await expectEveryRouteGuarded(app, { rule: /^workflow_orchestrator:/, minRoutes: 17 })
  })
})
