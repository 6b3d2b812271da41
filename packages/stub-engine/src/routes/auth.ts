// /auth/token: the simple auth manager's token endpoints (airflow-simple-auth-manager.yaml).
import type { FastifyPluginAsync } from 'fastify'
import { BadRequest, Forbidden, Unauthenticated, Unprocessable, UnprocessableText, UnsupportedMediaType } from '../domain/errors.ts'
import { signJwt } from '../domain/tokens.ts'
import { findUser } from '../domain/users.ts'
import { pydanticText } from '../http/pydantic-text.ts'
import { checkBody, RawBody } from '../http/validate.ts'
import { LoginBodySchema, type LoginBody } from '@slipway/airflow-contract'
import type { AuthSettings } from '../http/auth.ts'

export const authRoutes: FastifyPluginAsync<{ auth: AuthSettings }> = async (app, { auth }) => {
  function login (body: unknown, ttlS: number): { access_token: string } {
    if (body instanceof RawBody || typeof body === 'string') throw new UnsupportedMediaType('Unsupported Media Type')
    // Airflow validates the login body itself and answers a failure as the text of pydantic's error
    let credentials: LoginBody
    try {
      credentials = checkBody<LoginBody>(LoginBodySchema, body)
    } catch (error) {
      if (error instanceof Unprocessable) throw new UnprocessableText(pydanticText('LoginBody', error.errors))
      throw error
    }
    if (credentials.username === '' || credentials.password === '') throw new BadRequest('Username and password must be provided')
    const user = findUser(auth.users, credentials.username, credentials.password)
    if (user === undefined) throw new Unauthenticated('Invalid credentials')
    return { access_token: signJwt(auth.jwtSecret, user.username, user.role, ttlS) }
  }

  app.post('/auth/token', { config: { access: 'public' } }, async (request, reply) => {
    reply.code(201)
    return login(request.body, auth.jwtTtlS)
  })

  app.post('/auth/token/cli', { config: { access: 'public' } }, async (request, reply) => {
    reply.code(201)
    return login(request.body, auth.jwtCliTtlS)
  })

  app.get('/auth/token', { config: { access: 'public' } }, async (_request, reply) => {
    if (!auth.allAdmins) throw new Forbidden('This method is only allowed if ``[core] simple_auth_manager_all_admins`` is True')
    reply.code(201)
    return { access_token: signJwt(auth.jwtSecret, 'anonymous', 'ADMIN', auth.jwtTtlS) }
  })
}
