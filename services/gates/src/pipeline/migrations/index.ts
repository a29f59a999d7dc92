import { PipelineTables1764470300000 } from './1764470300000-pipeline-tables';

export const PIPELINE_MIGRATIONS: (new () => unknown)[] = [PipelineTables1764470300000];
