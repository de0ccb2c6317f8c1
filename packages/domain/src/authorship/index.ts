export * from './types';
export * from './units';
export * from './spans';
export * from './advance';
export * from './summary';
