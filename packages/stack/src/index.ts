// @slipway/stack: start the five Slipway processes together (npm start, end-to-end tests).
export * from './stack.ts'
export { NODE_FLAGS } from './environment.ts'
