import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { DataTables } from './data-tables';
import type { ServiceSettings } from './settings';

/** Properties of the Vendor Vacancy API stack. */
export interface VacancyApiStackProps extends StackProps {
  readonly settings: ServiceSettings;
}

/** The Vendor Vacancy API: its tables, functions and REST API. */
export class VacancyApiStack extends Stack {
  constructor(scope: Construct, id: string, props: VacancyApiStackProps) {
    super(scope, id, props);
    new DataTables(this, 'Data', { destroyOnRemoval: props.settings.destroyOnRemoval });
  }
}
