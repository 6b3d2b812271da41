// @slipway/common: what every Slipway service shares. Never imports a service.
export * from './config.ts'
export * from './errors.ts'
export * from './ids.ts'
export * from './logger.ts'
export * from './shutdown.ts'
