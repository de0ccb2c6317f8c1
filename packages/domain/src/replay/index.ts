export * from './fold-changes';
export * from './change-diff';
