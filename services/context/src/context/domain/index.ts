export * from './decision-selection';
export * from './decisions-block';
export * from './dev-context';
export * from './qa-cut';
export * from './story';
export * from './story-correction';
export * from './turn-context';
export * from './story-archive';
