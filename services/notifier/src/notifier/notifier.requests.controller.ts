import { Controller, Inject, Logger } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  Commands,
  EDGE_REASONS,
  EdgeReason,
  isRefusal,
  refusal,
  type ClockPolicyView,
  type ClockStateReply,
  type SetClockPolicyCommand,
  type SetWorkingTimeCommand,
  type UserCommand,
  type WorkingTimeView,
  type DeliveryListReply,
  type ListDeliveriesCommand,
  type NotificationChannelsView,
  type RedeliverCommand,
  type RedeliverReply,
  type Refusal,
  type SetNotificationChannelsCommand,
  type UserScopedCommand,
} from '@openq/contracts';
import { checkOutboundTarget, OutboundError } from '@openq/platform';
import { overdueState, parseClockPolicy, parseWorkingTime } from '../clock';
import { channelsView, setChannels } from './store/channels.store';
import {
  clockPolicyView,
  noticesOf,
  openClockQuestions,
  recordMember,
  setClockPolicy,
  setWorkingTime,
  workingTimeView,
  workingTimesOf,
} from './store/clock.store';
import { listDeliveries, redeliver } from './store/deliveries.store';
import { NOTIFIER_RUNTIME, type NotifierRuntime } from './notifier-runtime';

/** `openq.notifier.*`: a person's channels and deliveries on a project (the gateway's user routes). */
@Controller()
export class NotifierRequestsController {
  private readonly logger = new Logger('NotifierChannels');

  constructor(
    private readonly dataSource: DataSource,
    @Inject(NOTIFIER_RUNTIME) private readonly runtime: NotifierRuntime,
  ) {}

  @MessagePattern(Commands.notifier.channels.type)
  async channels(@Payload() cmd: UserScopedCommand): Promise<NotificationChannelsView> {
    await recordMember(this.dataSource.manager, cmd.projectId, cmd.userId, cmd.role);
    return channelsView(this.dataSource.manager, cmd.projectId, cmd.userId);
  }

  /**
   * Issue #27 (SPEC §12.2): a webhook or Slack target must resolve to public addresses (or ones
   * the operator allows) — else 400 `destino_nao_permitido` and nothing is saved. The same rule
   * holds again at every send (the name may resolve elsewhere by then).
   */
  @MessagePattern(Commands.notifier.setChannels.type)
  async setChannels(
    @Payload() cmd: SetNotificationChannelsCommand,
  ): Promise<NotificationChannelsView | Refusal> {
    const targets = [cmd.channels.webhook?.url, cmd.channels.slack?.webhookUrl].filter(
      (url): url is string => typeof url === 'string',
    );
    for (const url of targets) {
      const refused = await this.refusedTarget(url);
      if (refused) return refused;
    }
    return this.dataSource.transaction(async (m) => {
      await recordMember(m, cmd.projectId, cmd.userId, cmd.role);
      await setChannels(m, cmd.projectId, cmd.userId, cmd.channels);
      return channelsView(m, cmd.projectId, cmd.userId);
    });
  }

  private async refusedTarget(url: string): Promise<Refusal | null> {
    try {
      await checkOutboundTarget(url, this.runtime.settings.outbound);
      return null;
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      // A name that does not resolve right now is not refused: it is tried (and classed) at send.
      if (error.failure !== EdgeReason.targetNotAllowed) return null;
      this.logger.warn(`notification target refused: ${error.detail}`);
      return refusal(
        EDGE_REASONS.destino_nao_permitido.status,
        EdgeReason.targetNotAllowed,
        'this address cannot receive notifications: it is not public (an operator may allow it with OPENQ_NOTIFY_ALLOWED_TARGETS)',
      );
    }
  }

  @MessagePattern(Commands.notifier.deliveries.type)
  deliveries(@Payload() cmd: ListDeliveriesCommand): Promise<DeliveryListReply> {
    return listDeliveries(this.dataSource, cmd.projectId, cmd.userId, cmd.status, cmd.limit);
  }

  @MessagePattern(Commands.notifier.redeliver.type)
  async redeliver(@Payload() cmd: RedeliverCommand): Promise<RedeliverReply | Refusal> {
    const status = await redeliver(this.dataSource, cmd.projectId, cmd.userId, cmd.deliveryId);
    // The same body for another person's delivery as for none: nothing leaks.
    if (status === null)
      return refusal(404, 'entrega_nao_encontrada', 'no such delivery of yours in this project');
    this.runtime.sender?.kick();
    return { deliveryId: cmd.deliveryId, status };
  }

  @MessagePattern(Commands.notifier.clockPolicy.type)
  clockPolicy(@Payload() cmd: UserScopedCommand): Promise<ClockPolicyView> {
    return clockPolicyView(this.dataSource.manager, cmd.projectId);
  }

  /** The gateway lets only maintainers (and owners) here; the policy's shape is the domain's to judge. */
  @MessagePattern(Commands.notifier.setClockPolicy.type)
  async setClockPolicy(@Payload() cmd: SetClockPolicyCommand): Promise<ClockPolicyView | Refusal> {
    const policy = cmd.policy === null ? null : parseClockPolicy(cmd.policy);
    if (isRefusal(policy)) return policy;
    const view = await this.dataSource.transaction(async (m) => {
      await recordMember(m, cmd.projectId, cmd.userId, cmd.role);
      await setClockPolicy(m, cmd.projectId, policy, cmd.userId);
      return clockPolicyView(m, cmd.projectId);
    });
    void this.runtime.clock?.tick().catch(() => 0);
    return view;
  }

  /**
   * Where each open question of the project stands on its clock (the inbox's markers: on time,
   * due soon, overdue), with the notices given so far. Any member sees who is late.
   */
  @MessagePattern(Commands.notifier.clockState.type)
  async clockState(@Payload() cmd: UserScopedCommand): Promise<ClockStateReply> {
    // A read the inbox repeats every minute: it records no member (the channel routes do).
    const m = this.dataSource.manager;
    const rows = await openClockQuestions(m, cmd.projectId);
    if (rows.length === 0) {
      const { policy } = await clockPolicyView(m, cmd.projectId);
      return { projectId: cmd.projectId, clock: policy !== null, items: [] };
    }
    const workingTimeOf = await workingTimesOf(
      m,
      rows.map((r) => r.session_author_id),
    );
    const notices = await noticesOf(
      m,
      rows.map((r) => r.question_id),
    );
    const now = (this.runtime.now ?? (() => new Date()))();
    const items = rows.flatMap((r) => {
      const marker = overdueState(
        {
          questionId: r.question_id,
          declaredAt: new Date(r.declared_at),
          authorId: r.session_author_id,
          status: 'open',
        },
        r.policy,
        workingTimeOf(r.session_author_id),
        now,
      );
      return marker
        ? [
            {
              questionId: r.question_id,
              authorId: r.session_author_id,
              state: marker.state,
              dueAt: marker.dueAt.toISOString(),
              notices: notices.get(r.question_id) ?? [],
            },
          ]
        : [];
    });
    return { projectId: cmd.projectId, clock: true, items };
  }

  @MessagePattern(Commands.notifier.workingTime.type)
  workingTime(@Payload() cmd: UserCommand): Promise<WorkingTimeView> {
    return workingTimeView(this.dataSource.manager, cmd.userId);
  }

  @MessagePattern(Commands.notifier.setWorkingTime.type)
  async setWorkingTime(@Payload() cmd: SetWorkingTimeCommand): Promise<WorkingTimeView | Refusal> {
    const workingTime = cmd.workingTime === null ? null : parseWorkingTime(cmd.workingTime);
    if (isRefusal(workingTime)) return workingTime;
    const view = await this.dataSource.transaction(async (m) => {
      await setWorkingTime(m, cmd.userId, workingTime);
      return workingTimeView(m, cmd.userId);
    });
    void this.runtime.clock?.tick().catch(() => 0);
    return view;
  }
}
