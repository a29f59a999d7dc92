import { ACTOR_KINDS, type ActorKind } from '../vocabulary';
import { IsEntityId, IsOneOf } from '../validators';

/** Who acts: a person (`{ kind: 'user', id: <userId> }`) or an agent (`{ kind: 'agent', id: 'po' }`). */
export interface Actor {
  kind: ActorKind;
  id: string;
}

export class ActorDto implements Actor {
  @IsOneOf(ACTOR_KINDS)
  kind!: ActorKind;

  @IsEntityId()
  id!: string;
}

/** §3.1 the actor of a decision record is always the user (the session author). */
export interface UserActor {
  kind: 'user';
  id: string;
}

export class UserActorDto implements UserActor {
  @IsOneOf(['user'])
  kind!: 'user';

  @IsEntityId()
  id!: string;
}
