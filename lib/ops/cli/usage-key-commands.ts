import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import type { Command } from 'commander';
import { UsageError, UserError } from '../errors';
import { resolveRegion, stackExists } from '../target';
import { ControlPlanePacer, removeStackUsageKeys } from '../usage-keys';
import { type Options, type Place, placedAction } from './program';

/** A deployed (or destroyed) stack's control plane: API Gateway and CloudFormation in its region. */
interface StackControlPlane extends Place {
  readonly stackName: string;
  readonly region: string;
  readonly apiGateway: APIGatewayClient;
  readonly cloudFormation: CloudFormationClient;
}

/** The control plane of `--stack`, in its region — without reading the stack, which may be gone. */
async function resolveStackControlPlane(options: Options): Promise<StackControlPlane> {
  if (!options.stack)
    throw new UsageError('usage-keys remove needs --stack <name>: the stack whose keys to remove.');
  const region = await resolveRegion(options, process.env);
  const apiGateway = new APIGatewayClient({ maxAttempts: 8, retryMode: 'adaptive', region: region.name });
  const cloudFormation = new CloudFormationClient({ region: region.name });
  return {
    stackName: options.stack,
    region: region.name,
    apiGateway,
    cloudFormation,
    description: `stack ${options.stack} in ${region.name}`,
    close: () => {
      apiGateway.destroy();
      cloudFormation.destroy();
    },
  };
}

/** `usage-keys remove`: what `cdk destroy` leaves of a stack in API Gateway. */
export function addUsageKeyCommands(program: Command): void {
  program
    .command('usage-keys')
    .description("the API Gateway keys the CLI makes for a stack's vendors, outside CloudFormation")
    .command('remove')
    .description(
      'after "cdk destroy": delete the API Gateway keys of the stack\'s vendors (--stack), which CloudFormation leaves',
    )
    .option(
      '--force',
      'also while the stack still exists (its vendors get 500s until "vendor sync-usage-keys")',
    )
    .action(
      placedAction(resolveStackControlPlane, async (place, options) => {
        if (!options.force && (await stackExists(place.cloudFormation, place.stackName))) {
          throw new UserError(
            `${place.description} still exists, and its vendors' requests need these keys.`,
            'run it after "cdk destroy", or give --force.',
          );
        }
        const { deleted } = await removeStackUsageKeys(
          { apiGateway: place.apiGateway, pacer: new ControlPlanePacer() },
          place.stackName,
        );
        return {
          data: { stack: place.stackName, region: place.region, deleted },
          text: [
            ...deleted.map(({ id, name }) => `deleted API key ${id} (${name})`),
            `${deleted.length} usage key${deleted.length === 1 ? '' : 's'} of ${place.description} deleted`,
          ],
        };
      }),
    );
}
