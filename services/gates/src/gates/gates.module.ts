import { Module } from '@nestjs/common';

// Filled in by the gates slice: message controllers for agent.gate.*, agent.qa.verdict,
// question.answered, the gates.* request verbs, and the idle-parking sweep.
@Module({})
export class GatesModule {}
