export * from './deps';
export * from './migrate-all';
export * from './auth/create-auth';
export * from './auth/authenticate';
export * from './tokens/api-tokens';
export * from './rate-limit/consume-rate-limit';
export * from './health';
export * from './branching/sweep-pending-branches';
