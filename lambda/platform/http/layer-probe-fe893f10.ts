import { SERVICE_NAME } from '../../platform/defaults';
import type { ReadCost } from '../dynamodb/capacity';
export { SERVICE_NAME };
export type { ReadCost };
