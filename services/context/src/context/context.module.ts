import { Module } from '@nestjs/common';

// Filled in by the context slice: read models from agent.story.upserted, agent.task.status,
// decision.recorded and question.*; the context.* request verbs; story corrections.
@Module({})
export class ContextModule {}
