/**
 * The document and the deployment serve the same API: the operations of docs/openapi.yaml are exactly the
 * methods the synthesized REST API routes to a function; OPTIONS on those paths is the preflight mock (the
 * document's `Preflight`) and every other method the 405 mock (`MethodNotAllowed`); no other path has a method (the
 * document's `NotFound`). A path with servers of its own (the feeds, served from the feed base) is not the API's.
 */
import { describe, expect, it } from '@jest/globals';
import { OPENAPI } from '../../../../testkit/openapi';
import { sharedStackTemplate } from '../../../../testkit/synth-server';

type Resource = { Properties: Record<string, unknown> };
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const template = await sharedStackTemplate();

describe('docs/openapi.yaml and the synthesized API', () => {
  const resources = template.findResources('AWS::ApiGateway::Resource') as Record<string, Resource>;
  const restApis = Object.keys(template.findResources('AWS::ApiGateway::RestApi'));

  /** The full path of an API Gateway resource, from its parents' path parts. */
  function pathOf(resourceId: unknown): string {
    const ref = (resourceId as { Ref?: string }).Ref;
    if (!ref) return '/'; // the root resource (Fn::GetAtt of the RestApi's RootResourceId)
    const resource = resources[ref];
    if (!resource) throw new Error(`Unknown resource ${ref}`);
    const parent = resource.Properties.ParentId as { Ref?: string; 'Fn::GetAtt'?: string[] };
    const parentPath = parent.Ref && !restApis.includes(parent.Ref) ? pathOf(parent) : '';
    return `${parentPath}/${resource.Properties.PathPart as string}`;
  }

  const methods = Object.values(
    template.findResources('AWS::ApiGateway::Method') as Record<string, Resource>,
  ).map(({ Properties }) => ({
    method: String(Properties.HttpMethod),
    path: pathOf(Properties.ResourceId),
    integration: Properties.Integration as { Type: string; IntegrationResponses?: { StatusCode: string }[] },
  }));
  /** The document's paths the REST API serves: those without servers of their own. */
  const apiPaths = Object.entries(OPENAPI.paths as Record<string, Record<string, unknown>>).filter(
    ([, item]) => !('servers' in item),
  );
  const documented = apiPaths.flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => HTTP_METHODS.includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );

  it('routes exactly the documented operations to a function', () => {
    const routed = methods
      .filter((m) => m.integration.Type === 'AWS_PROXY')
      .map((m) => `${m.method} ${m.path}`);
    expect(routed.sort()).toEqual(documented.sort());
  });

  it('answers OPTIONS of a documented path with the preflight mock, every other method with the 405 mock, and has no other path', () => {
    const others = methods.filter((m) => m.integration.Type !== 'AWS_PROXY');
    const paths = apiPaths.map(([path]) => path);
    expect(others.map((m) => `${m.method} ${m.path}`).sort()).toEqual(
      paths.flatMap((path) => [`ANY ${path}`, `OPTIONS ${path}`]).sort(),
    );
    const described = OPENAPI['x-other-methods'] as Record<string, Record<string, unknown>>;
    for (const other of others) {
      expect(other.integration.Type).toBe('MOCK');
      const status = other.method === 'OPTIONS' ? '204' : '405';
      expect(other.integration.IntegrationResponses?.map((response) => response.StatusCode)).toEqual([
        status,
      ]);
      expect(Object.keys(described[other.path] ?? {})).toContain(status);
    }
    expect(new Set(methods.map((m) => m.path))).toEqual(new Set(paths));
    expect(apiPaths.length).toBeLessThan(Object.keys(OPENAPI.paths as object).length);
  });

  it('says in its description every operation it has, by method and path', () => {
    const description = (OPENAPI.info as { description: string }).description.replace(/\s+/g, ' ');
    const operations = Object.entries(OPENAPI.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, item]) =>
        Object.keys(item)
          .filter((key) => HTTP_METHODS.includes(key))
          .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.length).toBeGreaterThanOrEqual(4);
    for (const operation of operations)
      expect([operation, description.includes(`\`${operation}\``)]).toEqual([operation, true]);
  });
});
