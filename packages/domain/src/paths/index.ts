export * from './contracts';
export * from './refs-note';
export * from './read-path';
