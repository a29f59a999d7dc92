import { Module } from '@nestjs/common';

// Filled in by the pipeline slice (ADR-0053): agent.task.*, agent.analysis.finished,
// question.answered, the pipeline-* request verbs.
@Module({})
export class PipelineModule {}
