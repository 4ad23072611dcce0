/**
 * A request header of a REST proxy event, read as HTTP means it: by name in any case, a repeated header's values
 * joined into one list.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';

/**
 * A request header by name, case-insensitively (API Gateway passes names as the client wrote them). Repeated
 * headers are joined with ", " as RFC 9110 allows for list-valued fields.
 */
export function requestHeader(
  event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>,
  name: string,
): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, values] of Object.entries(event.multiValueHeaders ?? {})) {
    if (key.toLowerCase() === wanted && values && values.length > 0) return values.join(', ');
  }
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}
