import { PolicyChangeFields } from '../dto/policy-change-fields.dto';

/** `PUT /projects/:projectId/policies` (§12.1, maintainer): turn delegation and/or the override on or off, saying why. */
export class ChangePoliciesBody extends PolicyChangeFields {}
