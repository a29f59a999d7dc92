import type { OpenqConfig } from '@openq/platform';
import type { AdmissionFlags } from './domain/admission';
import type { AnalysisFlags } from './domain/analysis-outcome';

/** SPEC §7 flags, per deployment, as the domain takes them. */
export interface PipelineFlags {
  analysis: AnalysisFlags;
  admission: AdmissionFlags;
}

export const PIPELINE_FLAGS = Symbol('openq:pipeline-flags');

export function pipelineFlags(config: OpenqConfig): PipelineFlags {
  const p = config.pipeline;
  return {
    analysis: {
      analystQuestionsGateEnabled: p.analystQuestionsGateEnabled,
      analystQuestionsGateRepos: [...p.analystQuestionsGateRepos],
      analystNeedsInputAutopauseEnabled: p.analystNeedsInputAutopauseEnabled,
      autoApproveLabel: p.autoApproveLabel,
    },
    admission: { serialGatePauseEnabled: p.serialGatePauseEnabled },
  };
}
