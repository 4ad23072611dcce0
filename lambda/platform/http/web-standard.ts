/**
 * API Gateway's REST proxy events and results as the Fetch standard's `Request` and `Response`, for code written to
 * those (a web-standard transport): one event made a request, one response made a result.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { HttpError } from './errors';

/**
 * The web-standard `Request` of a REST proxy event (a handler that speaks the Fetch API's types, such as a web-standard server transport, reads it): the event's method, headers and body (API Gateway's text, or
 * base64 for a binary media type). A header no `Headers` can hold is the client's 400, in the envelope.
 */
export function webRequest(event: APIGatewayProxyEvent): Request {
  const headers = new Headers();
  try {
    for (const [name, values] of Object.entries(event.multiValueHeaders ?? {}))
      for (const value of values ?? []) headers.append(name, value);
    if (!event.multiValueHeaders)
      for (const [name, value] of Object.entries(event.headers ?? {}))
        if (value !== undefined) headers.append(name, value);
  } catch {
    throw new HttpError(400);
  }
  const body =
    event.body === null ? null : event.isBase64Encoded ? Buffer.from(event.body, 'base64') : event.body;
  return new Request(
    `https://${event.requestContext.domainName ?? 'localhost'}${event.requestContext.path}`,
    {
      method: event.httpMethod,
      headers,
      body,
    },
  );
}

/** A web-standard response as a REST proxy result (its body as text: JSON, or empty for an accepted notification). */
export async function proxyResult(response: Response): Promise<APIGatewayProxyResult> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { statusCode: response.status, headers, body: await response.text() };
}
