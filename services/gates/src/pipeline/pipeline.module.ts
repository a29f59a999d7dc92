import { Module } from '@nestjs/common';
import type { OpenqConfig } from '@openq/platform';
import { OPENQ_CONFIG } from '../gates-config';
import { QuestionDeclarer } from '../gates/adapters/question-declarer';
import { AdmissionSweep } from './commands/admit-next/admission.sweep';
import { PIPELINE_FLAGS, pipelineFlags } from './pipeline.flags';
import { PipelineEventsController } from './pipeline.events.controller';
import { PipelineRequestsController } from './pipeline.requests.controller';

const messageControllers = [PipelineEventsController, PipelineRequestsController];
const providers = [
  {
    provide: PIPELINE_FLAGS,
    useFactory: (config: OpenqConfig) => pipelineFlags(config),
    inject: [OPENQ_CONFIG],
  },
  QuestionDeclarer,
  AdmissionSweep,
];

/**
 * The pipeline profile (SPEC §7, ADR-0053): the per-repo serial gate with the pause axis, the
 * analyst's Needs Input with auto-park, and resume + relaunch when the questions are answered.
 */
@Module({ controllers: [...messageControllers], providers })
export class PipelineModule {}
