export * from './auth';
export * from './conversations';
export * from './workspace';
export * from './branches';
export * from './tokens';
export * from './instances';
export * from './authorship';
export * from './family-events';
