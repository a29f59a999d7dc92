import { IsEntityId } from '../validators';

/** Every command names its project: the services never infer it. */
export abstract class ProjectScoped {
  @IsEntityId()
  projectId!: string;
}

/** A command about one task of a project. */
export abstract class TaskScoped extends ProjectScoped {
  @IsEntityId()
  taskId!: string;
}
