import { Module, type DynamicModule } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import type { NatsConnection } from 'nats';
import { HealthModule, natsReadinessCheck } from '@openq/platform';
import { AuthModule } from './auth/auth.module';
import type { GatewayConfig } from './config';
import { AnalyticsController } from './analytics/analytics.controller';
import { AgentContextController, TaskContextController } from './context/task-context.controller';
import {
  AgentStoryCorrectionsController,
  StoryCorrectionsController,
} from './context/story-corrections.controller';
import { AgentStoryArchiveController, StoryArchiveController } from './context/story-archive.controller';
import { AgentEventsController } from './events/agent-events.controller';
import { EngineEventsController, EngineSubscriptionController } from './engines/engines.controller';
import { GatesController } from './gates/gates.controller';
import { GateHistoryController, WaitingController } from './gates/waiting.controller';
import { ContractValidationPipe } from './http/contract-validation.pipe';
import { DocsController } from './http/docs';
import { InboxModule } from './inbox/inbox.module';
import { NATS_CONNECTION, NatsModule } from './messaging/nats.module';
import { ClockController } from './notifications/clock.controller';
import { LanguageController } from './notifications/language.controller';
import { NotificationsController } from './notifications/notifications.controller';
import { WorkingTimeController } from './notifications/working-time.controller';
import { OneTapModule } from './one-tap/one-tap.module';
import { PipelineController } from './pipeline/pipeline.controller';
import { AgentQuestionsController } from './questions/agent-questions.controller';
import { OpenQuestionsController } from './questions/open-questions.controller';
import { MyQuestionsController } from './questions/my-questions.controller';
import { DelegationsController } from './questions/delegations.controller';
import { PoliciesController } from './questions/policies.controller';
import { ReadinessController } from './questions/readiness.controller';
import { loadStreamSettings } from './stream/stream.config';
import { StreamModule } from './stream/stream.module';
import { SlackModule } from './slack/slack.module';

/** The UI's routes (JWT + role on the project). */
const userControllers = [
  OpenQuestionsController,
  MyQuestionsController,
  DelegationsController,
  PoliciesController,
  ReadinessController,
  GatesController,
  WaitingController,
  TaskContextController,
  StoryCorrectionsController,
  PipelineController,
  GateHistoryController,
  StoryArchiveController,
  NotificationsController,
  ClockController,
  LanguageController,
  WorkingTimeController,
  AnalyticsController,
];

/** The engine's routes under `/internal` (service token). */
const internalControllers = [
  AgentQuestionsController,
  AgentContextController,
  AgentStoryCorrectionsController,
  AgentStoryArchiveController,
  AgentEventsController,
  EngineEventsController,
  EngineSubscriptionController,
];

/** Open to anyone: the OpenAPI page (health and metrics come with HealthModule). */
const publicControllers = [DocsController];

@Module({})
export class AppModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        NatsModule.forRoot({ url: config.nats.url, rpcTimeoutMs: config.rpcTimeoutMs }),
        AuthModule.forRoot(config.auth, config.rateLimits),
        HealthModule.register(
          {
            inject: [NATS_CONNECTION],
            useFactory: (nc: NatsConnection) => ({ nats: natsReadinessCheck(nc) }),
          },
          { service: 'gateway' },
        ),
        // The live stream (SSE) and the web inbox page (+ /me, and /dev/login outside production).
        StreamModule.forRoot(loadStreamSettings()),
        InboxModule.forRoot(config),
        // [openq] issue #17 one-tap links from notifications: GET /l/:token confirms, POST answers.
        OneTapModule.forRoot(config),
        // [openq] issue #34 Slack's interactive buttons and the person's Slack member id.
        SlackModule.forRoot(config.slack),
      ],
      controllers: [...userControllers, ...internalControllers, ...publicControllers],
      providers: [{ provide: APP_PIPE, useClass: ContractValidationPipe }],
    };
  }
}
