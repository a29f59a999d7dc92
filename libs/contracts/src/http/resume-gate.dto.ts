import { OverrideFields } from '../dto/override-fields.dto';
import { AbsentMeansEmpty } from '../validation';

/**
 * `POST /projects/:projectId/tasks/:taskId/gates/:gate/resume`: no body (or `{}`) resumes an
 * idle park (§4, developer); `{ override: true, motivo }` resumes a decision park without the
 * answer (§11.1, maintainer). 400 `override_invalido` / `motivo_invalido` (the reasons are
 * inherited from `OverrideFields`); unknown fields `corpo_invalido`.
 */
@AbsentMeansEmpty()
export class ResumeGateBody extends OverrideFields {}
