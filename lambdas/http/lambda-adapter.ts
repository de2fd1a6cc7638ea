/**
 * The AWS Lambda adapter: API Gateway HTTP API events (payload format 2.0) to the app and back, with Hono's
 * own adapter (`hono/aws-lambda`), which converts the event to a Web Request and the Response to the result.
 */
import type { Hono } from 'hono';
import { handle } from 'hono/aws-lambda';

/** The Lambda handler of an app. */
export type LambdaHandler = ReturnType<typeof handle>;

/** @example export const handler = createLambdaHandler(createApp(deps)); */
export function createLambdaHandler(app: Hono): LambdaHandler {
  return handle(app);
}
