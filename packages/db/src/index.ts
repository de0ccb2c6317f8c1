export * as schema from './schema/index';
export * from './schema/index';
export * from './client';
export * from './embedded';
export * from './migrate';
export * from './schema/search';
export * from './local-defaults';
export * from './pipeline';
